package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"regexp"
	"time"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/types"
)

// The audit log (docs/decisions/0054-audit-log.md): who did what, when, from which address and device,
// never any message content. Each entry's hash covers its fields and the previous entry's hash, so a
// row changed or removed afterwards breaks the chain from there on (auditVerify). The one writer of
// entries: Go routes call auditAppend, the JS hooks call it through $audit (pb_hooks/lib/audit.js).
const (
	auditCollection = "audit_log"
	auditMaxDetails = 4000
	auditVerifyPage = 500
)

var auditActionPattern = regexp.MustCompile(`^[a-z0-9_]+(\.[a-z0-9_]+)+$`)

// auditEntry is one entry as it is hashed.
type auditEntry struct {
	Seq      int
	At       string
	Actor    string
	Action   string
	Target   string
	IP       string
	Device   string
	Details  json.RawMessage // canonical JSON: keys sorted, no spaces
	PrevHash string
}

// hash is SHA-256 over the entry's fields as one JSON array, in a fixed order.
func (a auditEntry) hash() string {
	data, _ := json.Marshal([]any{a.Seq, a.At, a.Actor, a.Action, a.Target, a.IP, a.Device, a.Details, a.PrevHash})
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// canonicalJSON re-encodes a JSON value with sorted keys and numbers as written ("{}" for nothing).
func canonicalJSON(raw []byte) (json.RawMessage, error) {
	if len(bytes.TrimSpace(raw)) == 0 {
		return json.RawMessage("{}"), nil
	}
	decoder := json.NewDecoder(bytes.NewReader(raw))
	decoder.UseNumber()
	var value any
	if err := decoder.Decode(&value); err != nil {
		return nil, err
	}
	if value == nil {
		return json.RawMessage("{}"), nil
	}
	out, err := json.Marshal(value)
	return json.RawMessage(out), err
}

// auditOrigin is where a request came from: its address and the browser and system of its session
// ("Chrome on Linux", as devices.go records it; never the user agent itself).
func auditOrigin(e *core.RequestEvent) (ip, device string) {
	if e == nil || e.Request == nil {
		return "", ""
	}
	ip = e.RealIP()
	if len(ip) > 64 {
		ip = ip[:64]
	}
	if agent := e.Request.Header.Get(sessionAgentHeader); agentPattern.MatchString(agent) {
		return ip, agent
	}
	if hash, _ := e.Get(sessionHashKey).(string); hash != "" {
		if row, err := e.App.FindFirstRecordByData(sessionsTable, "token_hash", hash); err == nil {
			return ip, row.GetString("agent")
		}
	}
	return ip, ""
}

// auditWhat is what an entry says: who did it, what, to whom or what, and a few details (ids, counts,
// names of settings: never message content, keys, passwords or tokens).
type auditWhat struct {
	Actor   string
	Action  string
	Target  string
	Details map[string]any
}

// auditAppend appends one entry. app is the transaction's app when the action runs in one, so both land
// or neither; e is the request (nil for the system).
func auditAppend(app core.App, e *core.RequestEvent, what auditWhat) error {
	if !auditActionPattern.MatchString(what.Action) || len(what.Action) > 60 {
		return fmt.Errorf("audit: malformed action %q", what.Action)
	}
	if len(what.Actor) > 40 || len(what.Target) > 200 {
		return errors.New("audit: actor or target too long")
	}
	raw, err := json.Marshal(what.Details)
	if err != nil {
		return fmt.Errorf("audit: details: %w", err)
	}
	details, err := canonicalJSON(raw)
	if err != nil || len(details) > auditMaxDetails {
		return errors.New("audit: details must be a small JSON object")
	}
	ip, device := auditOrigin(e)
	// In a transaction (the write lock is held from its start): two appends never take the same number.
	return app.RunInTransaction(func(tx core.App) error {
		collection, err := tx.FindCollectionByNameOrId(auditCollection)
		if err != nil {
			return err
		}
		entry := auditEntry{Seq: 1, At: time.Now().UTC().Format("2006-01-02T15:04:05.000Z"), Actor: what.Actor,
			Action: what.Action, Target: what.Target, IP: ip, Device: device, Details: details}
		last := core.NewRecord(collection)
		err = tx.RecordQuery(collection).OrderBy("seq DESC").Limit(1).One(last)
		if err == nil {
			entry.Seq = last.GetInt("seq") + 1
			entry.PrevHash = last.GetString("hash")
		}
		record := core.NewRecord(collection)
		record.Set("seq", entry.Seq)
		record.Set("at", entry.At)
		record.Set("actor", entry.Actor)
		record.Set("action", entry.Action)
		record.Set("target", entry.Target)
		record.Set("ip", entry.IP)
		record.Set("device", entry.Device)
		record.Set("details", types.JSONRaw(entry.Details))
		record.Set("prev_hash", entry.PrevHash)
		record.Set("hash", entry.hash())
		return tx.Save(record)
	})
}

// storedAuditEntry is a stored row's entry, as it would have been hashed.
func storedAuditEntry(row *core.Record) auditEntry {
	details, err := canonicalJSON([]byte(row.GetString("details")))
	if err != nil {
		details = json.RawMessage(fmt.Sprintf("%q", row.GetString("details")))
	}
	return auditEntry{Seq: row.GetInt("seq"), At: row.GetString("at"), Actor: row.GetString("actor"),
		Action: row.GetString("action"), Target: row.GetString("target"), IP: row.GetString("ip"),
		Device: row.GetString("device"), Details: details, PrevHash: row.GetString("prev_hash")}
}

// auditVerdict is what walking the chain found: ok with the number of entries, or the number (Seq)
// of the first entry that does not hold and how many held before it.
type auditVerdict struct {
	OK    bool `json:"ok"`
	Count int  `json:"count"`
	Seq   int  `json:"seq,omitempty"`
}

// auditVerify walks the whole chain in order. An entry does not hold when its hash is not its fields'
// hash, its link is not the previous entry's hash, or its number is not the next one (a removed row:
// the missing number is reported).
func auditVerify(app core.App) (auditVerdict, error) {
	collection, err := app.FindCollectionByNameOrId(auditCollection)
	if err != nil {
		return auditVerdict{}, err
	}
	prevHash := ""
	expected := 1
	for {
		rows := []*core.Record{}
		err := app.RecordQuery(collection).AndWhere(dbx.NewExp("seq >= {:from}", dbx.Params{"from": expected})).
			OrderBy("seq ASC").Limit(auditVerifyPage).All(&rows)
		if err != nil {
			return auditVerdict{}, err
		}
		for _, row := range rows {
			entry := storedAuditEntry(row)
			if entry.Seq != expected {
				return auditVerdict{OK: false, Count: expected - 1, Seq: expected}, nil
			}
			if entry.PrevHash != prevHash || entry.hash() != row.GetString("hash") {
				return auditVerdict{OK: false, Count: expected - 1, Seq: entry.Seq}, nil
			}
			prevHash = row.GetString("hash")
			expected++
		}
		if len(rows) < auditVerifyPage {
			return auditVerdict{OK: true, Count: expected - 1}, nil
		}
	}
}

// requestEventOf finds the request in a hook's event: a *core.RequestEvent, or an event embedding one.
func requestEventOf(value any) *core.RequestEvent {
	if e, ok := value.(*core.RequestEvent); ok {
		return e
	}
	v := reflect.ValueOf(value)
	if !v.IsValid() || v.Kind() != reflect.Pointer || v.IsNil() || v.Elem().Kind() != reflect.Struct {
		return nil
	}
	field := v.Elem().FieldByName("RequestEvent")
	if !field.IsValid() || !field.CanInterface() {
		return nil
	}
	e, _ := field.Interface().(*core.RequestEvent)
	return e
}
