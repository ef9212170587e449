package main

import (
	"slices"
	"time"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/core"
)

// The sweep's batches (docs/decisions/0065-retention.md). Each batch picks up to `batch` (50) rows of one
// conversation older than the cutoff (any kind: messages, edits, reactions, pins, thread replies;
// with "keep pinned", not a message that has a pin event nor that message's annotations), adds what
// hangs off them (their edits, reactions, pins and thread replies, whatever their age, and those
// replies' own annotations), then deletes in one short transaction the rows of the messages, their
// archive copies, attachments and link previews. PocketBase's cascade would do the same one record at a
// time, with hooks; plain DELETEs keep the write lock to a few milliseconds per batch. After the commit,
// the stored files of the attachments and previews are removed, each deleted message goes to the pages
// open on its conversation by the path a deletion takes (broadcast.go: "message-deleted"), and the batch's
// messages to every page of the members ("gone", gone.go: they leave the search index).

const retentionBatchSize = 50

type sweepReport struct {
	// Messages and thread replies deleted; Rows: every row, their edits, reactions and pins too.
	Messages        int     `json:"messages"`
	Rows            int     `json:"rows"`
	Files           int     `json:"files"`
	Previews        int     `json:"previews"`
	Archived        int     `json:"archived"`
	Channels        int     `json:"channels"`
	ChannelPolicies int     `json:"channel_policies"`
	Batches         int     `json:"batches"`
	LongestLockMs   float64 `json:"longest_lock_ms"`
	MedianLockMs    float64 `json:"median_lock_ms"`
	P99LockMs       float64 `json:"p99_lock_ms"`
	// The longest time a batch's statements took, the commit (and the WAL checkpoint SQLite may run
	// after it, outside the write lock) left out.
	LongestStatementsMs float64         `json:"longest_statements_ms"`
	TotalMs             float64         `json:"total_ms"`
	Policy              retentionPolicy `json:"policy"`
}

type sweeper struct {
	app        core.App
	keepPinned bool
	batch      int
	kinds      []any
	messages   *core.Collection
	stats      sweepReport
	holds      []time.Duration
	statements time.Duration
}

type sweptMessage struct {
	ID      string `db:"id"`
	Channel string `db:"channel"`
	Sender  string `db:"sender"`
	Created string `db:"created"`
	Kind    string `db:"kind"`
	Target  string `db:"target"`
	Thread  string `db:"thread"`
}

type sweptFile struct {
	ID   string `db:"id"`
	File string `db:"file"`
}

func newSweeper(app core.App, keepPinned bool, batch int) (*sweeper, error) {
	messages, err := app.FindCollectionByNameOrId("messages")
	if err != nil {
		return nil, err
	}
	// every kind, so that the (channel, kind, created) index serves the search
	kinds := []any{""}
	if field, ok := messages.Fields.GetByName("kind").(*core.SelectField); ok {
		for _, v := range field.Values {
			kinds = append(kinds, v)
		}
	}
	return &sweeper{app: app, keepPinned: keepPinned, batch: batch, kinds: kinds, messages: messages}, nil
}

func (s *sweeper) report(r sweepReport, started time.Time) sweepReport {
	policy := r.Policy
	channels, channelPolicies := r.Channels, r.ChannelPolicies
	r = s.stats
	r.Policy, r.Channels, r.ChannelPolicies = policy, channels, channelPolicies
	if len(s.holds) > 0 {
		holds := append([]time.Duration(nil), s.holds...)
		slices.Sort(holds)
		at := func(p float64) float64 { return millis(holds[min(len(holds)-1, int(p*float64(len(holds))))]) }
		r.MedianLockMs, r.P99LockMs, r.LongestLockMs = at(0.5), at(0.99), millis(holds[len(holds)-1])
	}
	r.LongestStatementsMs = millis(s.statements)
	r.TotalMs = millis(time.Since(started))
	return r
}

// sweepChannel deletes, batch after batch, the channel's messages created before cutoff; answers how many rows went.
func (s *sweeper) sweepChannel(channelID, cutoff string) (int, error) {
	total := 0
	for {
		var ids []string
		if err := expiring(s.app, "id", channelID, cutoff, s.kinds, s.keepPinned).Limit(int64(s.batch)).Column(&ids); err != nil {
			return total, err
		}
		if len(ids) == 0 {
			return total, nil
		}
		n, err := s.deleteBatch(ids)
		total += n
		if err != nil {
			return total, err
		}
	}
}

// expiring selects `column` of the conversation's rows of these kinds created before cutoff; with
// keepPinned, not what a pinned message keeps (notPinned). The sweep deletes what it selects, with
// what hangs off it; the console's preview counts the messages among them and the replies of their
// threads (retention_preview.go).
func expiring(app core.App, column, channelID, cutoff string, kinds []any, keepPinned bool) *dbx.SelectQuery {
	q := app.DB().Select(column).From("messages").
		Where(dbx.HashExp{"channel": channelID}).
		AndWhere(dbx.In("kind", kinds...)).
		AndWhere(dbx.NewExp("created < {:cutoff}", dbx.Params{"cutoff": cutoff}))
	if keepPinned {
		q = q.AndWhere(dbx.NewExp(notPinned("messages")))
	}
	return q
}

// notPinned is true of a row of `table` that no pinned message keeps: a message with a pin event, its
// annotations and its thread's replies, and those replies' annotations (a pinned discussion stays whole).
func notPinned(table string) string {
	return "NOT EXISTS (SELECT 1 FROM messages p WHERE p.kind = 'pin' AND p.target IN (" + table + ".id, " + table + ".target, " + table + ".thread))" +
		" AND NOT EXISTS (SELECT 1 FROM messages r JOIN messages p ON p.kind = 'pin' AND p.target = r.thread" +
		" WHERE r.id = " + table + ".target AND r.thread != '')"
}

// withDependents adds, level by level, the annotations and thread replies of the messages.
func (s *sweeper) withDependents(ids []string) ([]string, error) {
	all := append([]string(nil), ids...)
	seen := make(map[string]struct{}, len(ids))
	for _, id := range ids {
		seen[id] = struct{}{}
	}
	frontier := ids
	for depth := 0; depth < 4 && len(frontier) > 0; depth++ {
		var found []string
		err := s.app.DB().Select("id").From("messages").
			Where(dbx.Or(dbx.In("target", toAny(frontier)...), dbx.In("thread", toAny(frontier)...))).Column(&found)
		if err != nil {
			return nil, err
		}
		frontier = frontier[:0:0]
		for _, id := range found {
			if _, ok := seen[id]; !ok {
				seen[id] = struct{}{}
				all = append(all, id)
				frontier = append(frontier, id)
			}
		}
	}
	return all, nil
}

func (s *sweeper) deleteBatch(ids []string) (int, error) {
	all, err := s.withDependents(ids)
	if err != nil {
		return 0, err
	}
	in := toAny(all)
	var files, previews []sweptFile
	if err := s.app.DB().Select("id", "file").From("file_attachments").Where(dbx.In("message", in...)).All(&files); err != nil {
		return 0, err
	}
	if err := s.app.DB().Select("id", "image AS file").From("link_previews").Where(dbx.In("message", in...)).All(&previews); err != nil {
		return 0, err
	}
	var messages int
	if err := s.app.DB().Select("COUNT(*)").From("messages").Where(dbx.In("id", in...)).AndWhere(dbx.In("kind", "", "reply")).Row(&messages); err != nil {
		return 0, err
	}
	var swept []sweptMessage
	if broadcasting(s.app) {
		if err := s.app.DB().Select("id", "channel", "sender", "created", "kind", "target", "thread").From("messages").
			Where(dbx.In("id", in...)).All(&swept); err != nil {
			return 0, err
		}
	}

	var archived int64
	// Transactions begin IMMEDIATE (dbconnect.go): the write lock is held from the callback's start
	// until the commit returns. Waiting for it (behind another writer) is not counted.
	var locked time.Time
	err = s.app.RunInTransaction(func(tx core.App) error {
		locked = time.Now()
		result, err := tx.DB().Delete("message_archive", dbx.In("message", in...)).Execute()
		if err != nil {
			return err
		}
		archived, _ = result.RowsAffected()
		if _, err := tx.DB().Delete("file_attachments", dbx.In("message", in...)).Execute(); err != nil {
			return err
		}
		if _, err := tx.DB().Delete("link_previews", dbx.In("message", in...)).Execute(); err != nil {
			return err
		}
		_, err = tx.DB().Delete("messages", dbx.In("id", in...)).Execute()
		s.statements = max(s.statements, time.Since(locked))
		return err
	})
	if !locked.IsZero() {
		s.holds = append(s.holds, time.Since(locked))
	}
	if err != nil {
		return 0, err
	}
	s.stats.Batches++
	s.stats.Messages += messages
	s.stats.Rows += len(all)
	s.stats.Archived += int(archived)
	s.stats.Previews += len(previews)
	s.removeStoredFiles("file_attachments", files)
	s.removeStoredFiles("link_previews", previews)
	for _, f := range files {
		if f.File != "" {
			s.stats.Files++
		}
	}
	expired := make(map[string][]string)
	for _, m := range swept {
		if m.Kind == "" || m.Kind == "reply" { // what the pages' search index holds
			expired[m.Channel] = append(expired[m.Channel], m.ID)
		}
		record := core.NewRecord(s.messages)
		record.Id = m.ID
		record.Set("channel", m.Channel)
		record.Set("sender", m.Sender)
		record.Set("created", m.Created)
		record.Set("kind", m.Kind)
		record.Set("target", m.Target)
		record.Set("thread", m.Thread)
		broadcastMessage(s.app, record, "delete")
	}
	for channelID, ids := range expired {
		publishGone(s.app, channelID, ids)
	}
	return len(all), nil
}

// removeStoredFiles deletes the stored files (and thumbnails) of records already deleted.
func (s *sweeper) removeStoredFiles(collectionName string, rows []sweptFile) {
	if len(rows) == 0 {
		return
	}
	collection, err := s.app.FindCachedCollectionByNameOrId(collectionName)
	if err != nil {
		return
	}
	fs, err := s.app.NewFilesystem()
	if err != nil {
		s.app.Logger().Warn("retention: files not removed", "error", err)
		return
	}
	defer fs.Close()
	for _, row := range rows {
		if row.File == "" {
			continue
		}
		for _, err := range fs.DeletePrefix(collection.BaseFilesPath() + "/" + row.ID + "/") {
			s.app.Logger().Warn("retention: a stored file was not removed", "record", row.ID, "error", err)
		}
	}
}

// broadcasting says whether anyone listens for deleted messages (realtime clients or the relay).
func broadcasting(app core.App) bool {
	return app.SubscriptionsBroker().TotalClients() > 0 || relay.listening()
}

func millis(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func toAny(ids []string) []any {
	out := make([]any, len(ids))
	for i, id := range ids {
		out[i] = id
	}
	return out
}
