package main

import (
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tests"
	"github.com/pocketbase/pocketbase/tools/router"
)

// A sealed channel's message sent while a commit moving the group's epoch is being accepted: it is
// refused (409) once the commit is in, never stored for the epoch the commit ended.
func TestSealedMessageDuringACommitIsRefused(t *testing.T) {
	app, err := tests.NewTestAppWithConfig(core.BaseAppConfig{DataDir: t.TempDir(), DBConnect: connectDB})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(app.Cleanup)
	channels := core.NewBaseCollection("channels")
	channels.Fields.Add(&core.BoolField{Name: "sealed"})
	groups := core.NewBaseCollection("mls_groups")
	groups.Fields.Add(&core.TextField{Name: "channel"}, &core.NumberField{Name: "epoch"})
	messages := core.NewBaseCollection("messages")
	messages.Fields.Add(&core.TextField{Name: "channel"}, &core.NumberField{Name: "epoch"}, &core.TextField{Name: "encrypted_content"})
	for _, c := range []*core.Collection{channels, groups, messages} {
		if err := app.Save(c); err != nil {
			t.Fatal(err)
		}
	}
	channel := core.NewRecord(channels)
	channel.Set("sealed", true)
	if err := app.Save(channel); err != nil {
		t.Fatal(err)
	}
	group := core.NewRecord(groups)
	group.Set("channel", channel.Id)
	group.Set("epoch", 5)
	if err := app.Save(group); err != nil {
		t.Fatal(err)
	}
	registerSealedChannels(app)

	// The commit: the epoch moves to 6 in a transaction that stays open a moment.
	started, committed := make(chan struct{}), make(chan error, 1)
	go func() {
		committed <- app.RunInTransaction(func(tx core.App) error {
			if _, err := tx.DB().Update("mls_groups", dbx.Params{"epoch": 6}, dbx.HashExp{"id": group.Id}).Execute(); err != nil {
				return err
			}
			close(started)
			time.Sleep(300 * time.Millisecond)
			return nil
		})
	}()
	<-started

	// Meanwhile a message for epoch 5, through the create request's hooks and the save at their end.
	message := core.NewRecord(messages)
	message.Set("channel", channel.Id)
	message.Set("epoch", 5)
	message.Set("encrypted_content", "sealed for epoch 5")
	event := &core.RecordRequestEvent{RequestEvent: &core.RequestEvent{App: app}, Record: message}
	event.Collection = messages
	err = app.OnRecordCreateRequest().Trigger(event, func(e *core.RecordRequestEvent) error { return e.App.Save(e.Record) })
	if err := <-committed; err != nil {
		t.Fatal(err)
	}

	var apiErr *router.ApiError
	if !errors.As(err, &apiErr) || apiErr.Status != http.StatusConflict {
		t.Fatalf("a message for the epoch a commit ended: want 409, got %v", err)
	}
	stored, err := app.CountRecords("messages", dbx.HashExp{"epoch": 5})
	if err != nil {
		t.Fatal(err)
	}
	if stored != 0 {
		t.Fatalf("%d message(s) stored for the epoch the commit ended", stored)
	}
}
