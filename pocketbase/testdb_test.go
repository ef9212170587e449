package main

import (
	"testing"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/tests"
)

// testDB is a test app's database holding what the statements make, run in order (tables and rows a
// query under test reads); the app goes when the test ends.
func testDB(t *testing.T, statements ...string) dbx.Builder {
	t.Helper()
	app, err := tests.NewTestApp()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(app.Cleanup)
	db := app.NonconcurrentDB()
	for _, stmt := range statements {
		if _, err := db.NewQuery(stmt).Execute(); err != nil {
			t.Fatal(err)
		}
	}
	return db
}
