/** The session package: append-only JSONL session files, their locks and history repair. */
export * from "./types.js";
export { newSessionId, isSafeSessionId, assertSessionId } from "./ids.js";
export { fingerprint, canonicalJson } from "./fingerprint.js";
export { repairHistory, isHistoryValid, isHistorySendable, historyProblems, HistoryRefusedError, INTERRUPTED_RESULT, type RepairResult } from "./repair.js";
export { acquireLock, readLock, isProcessAlive, describeHolder, SessionLockedError, type LockInfo, type SessionLock, type AcquireOptions } from "./lock.js";
export { startLease, LEASE_INTERVAL_MS, type Lease } from "./lock-lease.js";
export { loadSessionFile } from "./load.js";
export { SessionStore, SessionNotFoundError, type SessionWriter, type SessionFilter } from "./store.js";
