/**
 * The commits of main whose upgrade fixtures test/fixtures/upgrade/ holds, one per persisted format
 * (the README there says which): written by scripts/make-upgrade-fixtures.ts, opened by
 * test/package/upgrade-fixtures.test.ts.
 */
export const FIXTURE_COMMITS = ['01f0bea', '7dd317d', 'b65c06b'] as const
