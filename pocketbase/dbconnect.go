package main

import (
	"github.com/pocketbase/dbx"
	_ "modernc.org/sqlite"
)

// PocketBase opens data.db with deferred transactions (BEGIN): a transaction reads first and asks
// for the write lock only at its first write. Litestream writes to the same database too (its
// checkpoint barrier and sequence table), so a deferred transaction that read before Litestream's
// commit cannot be promoted any more: SQLite answers SQLITE_BUSY_SNAPSHOT (517, "database is
// locked") at once, without the busy timeout's wait, and the hook that ran it failed. Under a crowd
// of sign-ups this was a false "invalid account data" for a few percent of them, and the queue
// behind the failed transaction took seconds.
//
// Here every transaction begins IMMEDIATE: it takes the write lock first (waiting, within the busy
// timeout, for Litestream's short one) and then reads, so its snapshot is always the latest and
// the write cannot be refused. Only transactions change; reads outside a transaction do not, and
// PocketBase runs its transactions on the single-connection write pool. The pragmas are
// PocketBase's own defaults (core.DefaultDBConnect), busy_timeout first as it requires.
const dataDBPragmas = "?_pragma=busy_timeout(10000)&_pragma=journal_mode(WAL)&_pragma=journal_size_limit(200000000)" +
	"&_pragma=synchronous(NORMAL)&_pragma=foreign_keys(ON)&_pragma=temp_store(MEMORY)&_pragma=cache_size(-32000)" +
	"&_txlock=immediate"

func connectDB(dbPath string) (*dbx.DB, error) {
	return dbx.Open("sqlite", dbPath+dataDBPragmas)
}
