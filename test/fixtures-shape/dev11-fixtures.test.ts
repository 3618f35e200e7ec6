/**
 * The dev11 set's shape (issue 27, session 14; test/fixtures/README.md), through the checks every fresh hand-written set
 * runs (hand-written-set.ts). Shape only: nothing here runs the detector, so its author never sees a flag.
 */
import { describeHandWrittenSet } from './hand-written-set.js'

describeHandWrittenSet({ name: 'dev11', pairPrefix: 'd11', turns: [120, 140], observations: [70, 90], earlier: ['dev2', 'dev3', 'dev4', 'dev5', 'dev6', 'dev7', 'dev8', 'dev9'], assistants: [0, 1], roles: ['Assistant'], repeatedRoles: ['Assistant'] })
