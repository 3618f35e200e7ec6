/**
 * The JSON Schemas (draft 2020-12) of SMALL v1.0.0, copied verbatim from specs/small/schemas/
 * (test/small/small-examples.test.ts checks they stay identical), plus memweave's schema for
 * `workspace.small.yml`, which the spec describes (§6) but does not ship a schema for.
 */
import type { SmallDocName } from './layout.js'

export const INTENT_SCHEMA = {
  "$id": "https://smallprotocol.dev/schemas/small/v1.0.0/intent.schema.json",
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "title": "SMALL Intent",
  "description": "Human-owned project intent and goals",
  "type": "object",
  "required": [
    "small_version",
    "owner",
    "intent",
    "scope",
    "success_criteria"
  ],
  "properties": {
    "small_version": {
      "type": "string",
      "const": "1.0.0",
      "description": "SMALL protocol version"
    },
    "owner": {
      "type": "string",
      "const": "human",
      "description": "Owner of this artifact (must be 'human')"
    },
    "intent": {
      "type": "string",
      "minLength": 1,
      "description": "The core intent/goal of the project"
    },
    "scope": {
      "type": "object",
      "required": [
        "include",
        "exclude"
      ],
      "properties": {
        "include": {
          "type": "array",
          "items": {
            "type": "string"
          },
          "description": "Paths or patterns to include in scope"
        },
        "exclude": {
          "type": "array",
          "items": {
            "type": "string"
          },
          "description": "Paths or patterns to exclude from scope"
        }
      },
      "additionalProperties": false
    },
    "success_criteria": {
      "type": "array",
      "items": {
        "type": "string"
      },
      "description": "Criteria that define success"
    }
  },
  "additionalProperties": false
}

export const CONSTRAINTS_SCHEMA = {
  "$id": "https://smallprotocol.dev/schemas/small/v1.0.0/constraints.schema.json",
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "title": "SMALL Constraints",
  "description": "Human-owned project constraints and requirements",
  "type": "object",
  "required": [
    "small_version",
    "owner",
    "constraints"
  ],
  "properties": {
    "small_version": {
      "type": "string",
      "const": "1.0.0",
      "description": "SMALL protocol version"
    },
    "owner": {
      "type": "string",
      "const": "human",
      "description": "Owner of this artifact (must be 'human')"
    },
    "constraints": {
      "type": "array",
      "items": {
        "type": "object",
        "required": [
          "id",
          "rule",
          "severity"
        ],
        "properties": {
          "id": {
            "type": "string",
            "minLength": 1,
            "description": "Unique identifier for this constraint"
          },
          "rule": {
            "type": "string",
            "minLength": 1,
            "description": "The constraint rule description"
          },
          "severity": {
            "type": "string",
            "enum": [
              "error",
              "warn"
            ],
            "description": "Severity level of constraint violation"
          }
        },
        "additionalProperties": false
      },
      "minItems": 1,
      "description": "Array of constraints with id, rule, and severity"
    }
  },
  "additionalProperties": false
}

export const PLAN_SCHEMA = {
  "$id": "https://smallprotocol.dev/schemas/small/v1.0.0/plan.schema.json",
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "title": "SMALL Plan",
  "description": "Agent-owned execution plan",
  "type": "object",
  "required": [
    "small_version",
    "owner",
    "tasks"
  ],
  "properties": {
    "small_version": {
      "type": "string",
      "const": "1.0.0",
      "description": "SMALL protocol version"
    },
    "owner": {
      "type": "string",
      "const": "agent",
      "description": "Owner of this artifact (must be 'agent')"
    },
    "tasks": {
      "type": "array",
      "items": {
        "type": "object",
        "required": [
          "id",
          "title"
        ],
        "properties": {
          "id": {
            "type": "string",
            "minLength": 1,
            "description": "Unique task identifier"
          },
          "title": {
            "type": "string",
            "minLength": 1,
            "description": "Task title"
          },
          "steps": {
            "type": "array",
            "items": {
              "type": "string"
            },
            "description": "Optional steps to complete the task"
          },
          "acceptance": {
            "type": "array",
            "items": {
              "type": "string"
            },
            "description": "Optional acceptance criteria"
          }
        },
        "additionalProperties": true
      },
      "minItems": 1,
      "description": "Array of tasks in the plan"
    }
  },
  "additionalProperties": false
}

export const PROGRESS_SCHEMA = {
  "$id": "https://smallprotocol.dev/schemas/small/v1.0.0/progress.schema.json",
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "title": "SMALL Progress",
  "description": "Agent-owned progress tracking (append-only flight recorder)",
  "type": "object",
  "required": [
    "small_version",
    "owner",
    "entries"
  ],
  "properties": {
    "small_version": {
      "type": "string",
      "const": "1.0.0",
      "description": "SMALL protocol version"
    },
    "owner": {
      "type": "string",
      "const": "agent",
      "description": "Owner of this artifact (must be 'agent')"
    },
    "entries": {
      "type": "array",
      "items": {
        "type": "object",
        "required": [
          "task_id"
        ],
        "properties": {
          "timestamp": {
            "type": "string",
            "format": "date-time",
            "description": "ISO 8601 timestamp for this progress entry"
          },
          "task_id": {
            "type": "string",
            "minLength": 1,
            "description": "ID of the task this progress entry relates to"
          },
          "replayId": {
            "type": "string",
            "pattern": "^[a-fA-F0-9]{64}$",
            "description": "ReplayId for the run this progress entry belongs to"
          },
          "status": {
            "type": "string",
            "enum": [
              "pending",
              "in_progress",
              "completed",
              "blocked",
              "cancelled"
            ],
            "description": "Status of the task at this point in time"
          },
          "evidence": {
            "description": "Evidence of progress (string or object)",
            "oneOf": [
              {
                "type": "string",
                "minLength": 1
              },
              {
                "type": "object"
              }
            ]
          },
          "verification": {
            "description": "Verification of progress (string or object)",
            "oneOf": [
              {
                "type": "string",
                "minLength": 1
              },
              {
                "type": "object"
              }
            ]
          },
          "command": {
            "type": "string",
            "minLength": 1,
            "description": "Command that was executed"
          },
          "command_summary": {
            "type": "string",
            "minLength": 1,
            "description": "Truncated command summary"
          },
          "command_sha256": {
            "type": "string",
            "pattern": "^[a-f0-9]{64}$",
            "description": "SHA256 of full command payload"
          },
          "command_ref": {
            "type": "string",
            "minLength": 1,
            "description": "Relative path to command log file"
          },
          "test": {
            "description": "Test that was run (string or object)",
            "oneOf": [
              {
                "type": "string",
                "minLength": 1
              },
              {
                "type": "object"
              }
            ]
          },
          "link": {
            "type": "string",
            "format": "uri",
            "description": "URL to external evidence"
          },
          "commit": {
            "type": "string",
            "pattern": "^[a-f0-9]{7,40}$",
            "description": "Git commit hash"
          },
          "notes": {
            "type": "string",
            "description": "Additional notes about this progress entry"
          }
        },
        "additionalProperties": false
      },
      "description": "Array of progress entries (append-only)"
    }
  },
  "additionalProperties": false
}

export const HANDOFF_SCHEMA = {
  "$id": "https://smallprotocol.dev/schemas/small/v1.0.0/handoff.schema.json",
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "title": "SMALL Handoff",
  "description": "Agent-owned resume entrypoint for session continuity",
  "type": "object",
  "required": [
    "small_version",
    "owner",
    "summary",
    "resume",
    "links",
    "replayId"
  ],
  "properties": {
    "small_version": {
      "type": "string",
      "const": "1.0.0",
      "description": "SMALL protocol version"
    },
    "owner": {
      "type": "string",
      "const": "agent",
      "description": "Owner of this artifact (must be 'agent')"
    },
    "summary": {
      "type": "string",
      "minLength": 1,
      "description": "Summary of current state for resuming work"
    },
    "resume": {
      "type": "object",
      "required": [
        "next_steps"
      ],
      "properties": {
        "current_task_id": {
          "oneOf": [
            {
              "type": "string",
              "minLength": 1
            },
            {
              "type": "null"
            }
          ],
          "description": "ID of the current/active task"
        },
        "next_steps": {
          "type": "array",
          "items": {
            "type": "string"
          },
          "description": "Array of next steps to resume work"
        }
      },
      "additionalProperties": false
    },
    "links": {
      "type": "array",
      "items": {
        "type": "object",
        "properties": {
          "url": {
            "type": "string",
            "format": "uri",
            "description": "URL to relevant resource"
          },
          "description": {
            "type": "string",
            "description": "Description of the linked resource"
          }
        },
        "additionalProperties": false
      },
      "description": "Array of relevant links for context"
    },
    "replayId": {
      "type": "object",
      "description": "Optional deterministic metadata for replay identification. Git history remains the canonical audit trail.",
      "properties": {
        "value": {
          "type": "string",
          "pattern": "^[a-fA-F0-9]{64}$",
          "description": "SHA256 hash for deterministic identification"
        },
        "source": {
          "type": "string",
          "enum": [
            "auto",
            "manual"
          ],
          "description": "Source of the replayId: 'auto' when generated by CLI, 'manual' when provided via --replay-id"
        }
      },
      "required": [
        "value",
        "source"
      ],
      "additionalProperties": false
    },
    "run": {
      "type": "object",
      "description": "Optional run transition metadata",
      "properties": {
        "created_at": {
          "type": "string",
          "format": "date-time",
          "description": "Timestamp for the run transition"
        },
        "transition_reason": {
          "type": "string",
          "enum": [
            "reset",
            "archive",
            "manual",
            "self_heal"
          ],
          "description": "Reason for the run transition"
        },
        "previous_replay_id": {
          "type": "string",
          "pattern": "^[a-fA-F0-9]{64}$",
          "description": "Prior replayId, when known"
        },
        "previous_run_ref": {
          "type": "string",
          "description": "Optional reference to the previous run snapshot or archive"
        }
      },
      "additionalProperties": false
    }
  },
  "additionalProperties": false
}

/**
 * `workspace.small.yml` (memweave's reading of SMALL.md §6): the exact version, and when present a
 * run whose `replay_id` is a SHA-256. Other keys (`kind`, timestamps, tool-specific data) are allowed.
 */
export const WORKSPACE_SCHEMA = {
  $id: 'https://memweave.dev/schemas/small/v1.0.0/workspace.schema.json',
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  title: 'SMALL Workspace (memweave)',
  type: 'object',
  required: ['small_version'],
  properties: {
    small_version: { type: 'string', const: '1.0.0' },
    kind: { type: 'string', minLength: 1 },
    created_at: { type: 'string', format: 'date-time' },
    updated_at: { type: 'string', format: 'date-time' },
    run: {
      type: 'object',
      properties: {
        replay_id: { type: 'string', pattern: '^[a-fA-F0-9]{64}$' },
        created_at: { type: 'string', format: 'date-time' },
      },
      additionalProperties: true,
    },
  },
  additionalProperties: true,
}

/** The schema of each document. */
export const SCHEMAS: Readonly<Record<SmallDocName, object>> = {
  intent: INTENT_SCHEMA,
  constraints: CONSTRAINTS_SCHEMA,
  plan: PLAN_SCHEMA,
  progress: PROGRESS_SCHEMA,
  handoff: HANDOFF_SCHEMA,
  workspace: WORKSPACE_SCHEMA,
}
