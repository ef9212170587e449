package main

import (
	"testing"

	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tests"
)

func TestNightlyJobNoLongerTruncatesTheReplicatedDatabase(t *testing.T) {
	app, err := tests.NewTestApp()
	if err != nil {
		t.Fatal(err)
	}
	defer app.Cleanup()

	if !hasJob(app, pocketbaseOptimizeJob) {
		t.Fatalf("expected PocketBase's own %s job before serving (the test would prove nothing)", pocketbaseOptimizeJob)
	}
	registerCheckpoints(app)
	if err := app.OnServe().Trigger(&core.ServeEvent{App: app}, func(e *core.ServeEvent) error { return nil }); err != nil {
		t.Fatal(err)
	}
	if hasJob(app, pocketbaseOptimizeJob) {
		t.Fatalf("%s is still scheduled", pocketbaseOptimizeJob)
	}
	if !hasJob(app, "chatcryptDBOptimize") {
		t.Fatal("the replacement job is not scheduled")
	}
}

func hasJob(app core.App, id string) bool {
	for _, job := range app.Cron().Jobs() {
		if job.Id() == id {
			return true
		}
	}
	return false
}
