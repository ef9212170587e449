package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/pocketbase/dbx"
)

// A second writer on data.db, as Litestream is: it waits for no lock (busy_timeout 0).
func openOtherWriter(t *testing.T, path string) *dbx.DB {
	t.Helper()
	other, err := dbx.Open("sqlite", path+"?_pragma=busy_timeout(0)&_pragma=journal_mode(WAL)")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = other.Close() })
	return other
}

func openData(t *testing.T, connect func(string) (*dbx.DB, error)) (*dbx.DB, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "data.db")
	db, err := connect(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	db.DB().SetMaxOpenConns(1)
	if _, err := db.NewQuery("CREATE TABLE seq (n INTEGER)").Execute(); err != nil {
		t.Fatal(err)
	}
	return db, path
}

// What a sign-up does: read (is the email taken?), then write, in one transaction, while the other
// writer commits in between.
func readThenWrite(t *testing.T, db, other *dbx.DB) (otherErr, writeErr error) {
	t.Helper()
	tx, err := db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = tx.Rollback() }()
	var n int
	if err := tx.NewQuery("SELECT count(*) FROM seq").Row(&n); err != nil {
		t.Fatal(err)
	}
	_, otherErr = other.NewQuery("INSERT INTO seq VALUES (1)").Execute()
	if _, writeErr = tx.NewQuery("INSERT INTO seq VALUES (2)").Execute(); writeErr == nil {
		writeErr = tx.Commit()
	}
	return otherErr, writeErr
}

func TestDeferredTransactionIsRefusedAfterAnotherWriterCommits(t *testing.T) {
	// PocketBase's default: the other writer commits between the read and the write, and the
	// transaction's write is refused at once with SQLITE_BUSY_SNAPSHOT.
	db, path := openData(t, func(p string) (*dbx.DB, error) {
		return dbx.Open("sqlite", p+strings.TrimSuffix(dataDBPragmas, "&_txlock=immediate"))
	})
	otherErr, writeErr := readThenWrite(t, db, openOtherWriter(t, path))
	if otherErr != nil {
		t.Fatalf("the other writer should have committed: %v", otherErr)
	}
	if writeErr == nil || !strings.Contains(writeErr.Error(), "(517)") {
		t.Fatalf("expected SQLITE_BUSY_SNAPSHOT (517), got %v", writeErr)
	}
}

func TestImmediateTransactionHoldsTheWriteLockFromItsStart(t *testing.T) {
	db, path := openData(t, connectDB)
	otherErr, writeErr := readThenWrite(t, db, openOtherWriter(t, path))
	if writeErr != nil {
		t.Fatalf("the transaction's write must succeed: %v", writeErr)
	}
	// the other writer found the lock taken (with a busy timeout it would have waited for it)
	if otherErr == nil || !strings.Contains(strings.ToLower(otherErr.Error()), "locked") {
		t.Fatalf("the other writer should have met the transaction's lock, got %v", otherErr)
	}
	var n int
	if err := db.NewQuery("SELECT count(*) FROM seq").Row(&n); err != nil || n != 1 {
		t.Fatalf("rows = %d (%v), want the transaction's one", n, err)
	}
}
