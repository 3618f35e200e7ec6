/**
 * The dev5 set's shape (issue 27, session 12 round 2; test/fixtures/README.md), through the checks every fresh hand-written set
 * runs (hand-written-set.ts). Shape only: nothing here runs the detector, so its author never sees a flag.
 */
import { describeHandWrittenSet } from './hand-written-set.js'

describeHandWrittenSet({ name: 'dev5', pairPrefix: 'd5', turns: [140, 170], observations: [80, 100], earlier: ['dev2', 'dev3', 'dev4'], assistants: [1], roles: ['Assistant'], repeatedRoles: [] })
