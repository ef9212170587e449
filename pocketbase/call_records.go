package main

import (
	"log/slog"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/types"
)

// A call's record in its conversation (docs/decisions/0070-call-records-from-the-server.md). PocketBase
// asks the call server (LiveKit, whose rooms are named by conversation id) for its rooms every
// callPollInterval. A room exists only once someone joined it (our server never creates rooms), so a
// room of a conversation is a call: its row in call_records is made when it is first seen (started:
// the room's creation time), and its `seen` time kept while it exists. LiveKit closes a room its
// departure timeout after the last person left, however they left (Leave, a closed tab, a lost
// network). When the room is gone, the row gets `ended`: the moment it closed (between the last poll
// that saw it and this one) less that timeout. LiveKit's own count of participants in a room lags, so
// it is not read. The members' open pages are told through the relay ("call" event "ended"). One
// poller writes, and a room has one row (unique room_sid), so a call has one record whoever leaves
// last and when.
// It knows only what LiveKit says: the room's times. The server never writes into the messages.

const (
	callPollInterval = 2 * time.Second
	// how often a call's `seen` time is written while it goes on (for a restart mid-call)
	callSeenWriteEvery = 15 * time.Second
)

type liveCall struct {
	id      string // the call_records row
	channel string
	started time.Time
	// the last poll that saw the room; `polled`: by this process (not read back after a restart)
	seen    time.Time
	polled  bool
	written time.Time
	// LiveKit's departure timeout for the room
	departure time.Duration
}

type callWatcher struct {
	app     core.App
	livekit *liveKitRooms
	live    map[string]*liveCall // by room sid
	failing bool
	stop    chan struct{}
	done    sync.WaitGroup
}

// liveKitFromEnv is the call server's API as PocketBase reaches it (the same settings as the web
// server's), or nil when calls are not set up.
func liveKitFromEnv() *liveKitRooms {
	apiURL := os.Getenv("LIVEKIT_API_URL")
	if apiURL == "" {
		if u := os.Getenv("LIVEKIT_URL"); u != "" {
			apiURL = "http" + strings.TrimPrefix(u, "ws")
		}
	}
	key, secret := os.Getenv("LIVEKIT_API_KEY"), os.Getenv("LIVEKIT_API_SECRET")
	if apiURL == "" || key == "" || secret == "" {
		return nil
	}
	return newLiveKitRooms(apiURL, key, secret)
}

func registerCallRecords(app core.App) {
	rooms := liveKitFromEnv()
	if rooms == nil {
		return
	}
	watcher := &callWatcher{app: app, livekit: rooms, live: map[string]*liveCall{}, stop: make(chan struct{})}
	answers = newCallAnswers()
	app.OnServe().BindFunc(func(se *core.ServeEvent) error {
		watcher.done.Add(1)
		go watcher.run()
		return se.Next()
	})
	app.OnTerminate().BindFunc(func(e *core.TerminateEvent) error {
		close(watcher.stop)
		watcher.done.Wait()
		return e.Next()
	})
}

func (w *callWatcher) run() {
	defer w.done.Done()
	w.resume()
	ticker := time.NewTicker(callPollInterval)
	defer ticker.Stop()
	for {
		w.poll(time.Now())
		select {
		case <-w.stop:
			return
		case <-ticker.C:
		}
	}
}

// resume takes up the calls that were going on when PocketBase stopped: the next poll ends those
// whose room is gone.
func (w *callWatcher) resume() {
	rows, err := w.app.FindRecordsByFilter("call_records", "ended = ''", "", 0, 0)
	if err != nil {
		slog.Warn("The calls going on could not be read", "error", err)
		return
	}
	for _, row := range rows {
		seen := row.GetDateTime("seen").Time()
		if seen.IsZero() {
			seen = row.GetDateTime("started").Time()
		}
		w.live[row.GetString("room_sid")] = &liveCall{
			id: row.Id, channel: row.GetString("channel"), started: row.GetDateTime("started").Time(), seen: seen, written: seen,
		}
	}
}

func (w *callWatcher) poll(now time.Time) {
	rooms, err := w.livekit.list()
	if err != nil {
		// (nothing ends while the call server cannot be asked)
		if !w.failing {
			slog.Warn("The call server's rooms could not be read", "error", err)
		}
		w.failing = true
		return
	}
	w.failing = false
	present := map[string]bool{}
	for _, room := range rooms {
		present[room.Sid] = true
		if !historyChannel.MatchString(room.Name) {
			continue
		}
		call := w.live[room.Sid]
		if call == nil {
			if call = w.begin(room, now); call == nil {
				continue
			}
			w.live[room.Sid] = call
		}
		call.seen = now
		call.polled = true
		call.departure = time.Duration(room.DepartureTimeout) * time.Second
		if now.Sub(call.written) >= callSeenWriteEvery {
			w.write(call, "seen", now)
		}
	}
	for sid, call := range w.live {
		if !present[sid] {
			w.finish(call, call.end(now))
			delete(w.live, sid)
		}
	}
	answers.forget(now)
}

// begin makes the call's row (or finds it, made before a restart); nil for a room of no conversation.
func (w *callWatcher) begin(room liveKitRoom, now time.Time) *liveCall {
	if existing, err := w.app.FindFirstRecordByData("call_records", "room_sid", room.Sid); err == nil {
		return &liveCall{id: existing.Id, channel: existing.GetString("channel"), started: existing.GetDateTime("started").Time(), written: now}
	}
	if _, err := w.app.FindRecordById("channels", room.Name); err != nil {
		return nil
	}
	collection, err := w.app.FindCollectionByNameOrId("call_records")
	if err != nil {
		return nil
	}
	started := time.UnixMilli(room.CreationTimeMs)
	if room.CreationTimeMs == 0 {
		started = now
	}
	row := core.NewRecord(collection)
	row.Set("channel", room.Name)
	row.Set("room_sid", room.Sid)
	row.Set("started", started.UTC())
	row.Set("seen", now.UTC())
	if err := w.app.Save(row); err != nil {
		slog.Warn("A call's record could not be started", "error", err)
		return nil
	}
	return &liveCall{id: row.Id, channel: room.Name, started: started, written: now}
}

// end is when the last person left, for a room found gone at `now`: it closed between the last poll
// that saw it and now, its departure timeout after that. A call taken up after a restart whose room
// closed meanwhile ends at the last time it was seen.
func (c *liveCall) end(now time.Time) time.Time {
	ended := c.seen
	if c.polled {
		ended = c.seen.Add(now.Sub(c.seen) / 2).Add(-c.departure)
	}
	if ended.Before(c.started) {
		ended = c.started
	}
	if ended.After(now) {
		ended = now
	}
	return ended
}

func (w *callWatcher) write(call *liveCall, field string, at time.Time) {
	value, _ := types.ParseDateTime(at.UTC())
	_, err := w.app.DB().Update("call_records", dbx.Params{field: value.String()}, dbx.HashExp{"id": call.id}).Execute()
	if err != nil {
		slog.Warn("A call's record could not be written", "error", err)
		return
	}
	call.written = at
}

// finish ends the call's record (once: a row with `ended` is not touched again) and tells the
// members' open pages.
func (w *callWatcher) finish(call *liveCall, ended time.Time) {
	row, err := w.app.FindRecordById("call_records", call.id)
	if err != nil || !row.GetDateTime("ended").IsZero() {
		return
	}
	row.Set("seen", call.seen.UTC())
	row.Set("ended", ended.UTC())
	// (a direct conversation's call nobody answered keeps who placed it: call_answers.go)
	if caller, declined := answers.take(call.channel, call.seen); caller != "" {
		row.Set("unanswered_caller", caller)
		row.Set("declined_by", declined)
	}
	if err := w.app.Save(row); err != nil {
		slog.Warn("A call's record could not be ended", "error", err)
		return
	}
	if !relay.listening() {
		return
	}
	if users, serial, err := members.list(w.app, call.channel); err == nil {
		relay.publishList("call", call.channel, serial, users, callRecord{Channel: call.channel, Event: "ended"})
	}
}
