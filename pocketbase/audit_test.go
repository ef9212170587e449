package main

import (
	"encoding/json"
	"testing"
)

func TestAuditCanonicalJSONSortsKeysAndKeepsNumbers(t *testing.T) {
	got, err := canonicalJSON([]byte(`{ "b": 1, "a": {"d": 10000000000000001, "c": 1.50} }`))
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != `{"a":{"c":1.50,"d":10000000000000001},"b":1}` {
		t.Fatalf("canonical form: %s", got)
	}
	for _, empty := range []string{"", "null", "  "} {
		if got, _ := canonicalJSON([]byte(empty)); string(got) != "{}" {
			t.Fatalf("%q: %s", empty, got)
		}
	}
}

func TestAuditHashCoversEveryField(t *testing.T) {
	base := auditEntry{Seq: 7, At: "2026-11-28T10:00:00.000Z", Actor: "a", Action: "role.changed", Target: "t",
		IP: "203.0.113.7", Device: "Firefox on Linux", Details: json.RawMessage(`{"role":"admin"}`), PrevHash: "p"}
	changes := []func(e *auditEntry){
		func(e *auditEntry) { e.Seq = 8 },
		func(e *auditEntry) { e.At = "2026-11-28T10:00:00.001Z" },
		func(e *auditEntry) { e.Actor = "b" },
		func(e *auditEntry) { e.Action = "role.changes" },
		func(e *auditEntry) { e.Target = "u" },
		func(e *auditEntry) { e.IP = "203.0.113.8" },
		func(e *auditEntry) { e.Device = "Chrome on Linux" },
		func(e *auditEntry) { e.Details = json.RawMessage(`{"role":"owner"}`) },
		func(e *auditEntry) { e.PrevHash = "q" },
	}
	for i, change := range changes {
		changed := base
		change(&changed)
		if changed.hash() == base.hash() {
			t.Fatalf("change %d left the hash as it was", i)
		}
	}
	if len(base.hash()) != 64 || base.hash() != base.hash() {
		t.Fatal("the hash is 64 hex digits, the same for the same entry")
	}
}

func BenchmarkAuditVerifyEntry(b *testing.B) {
	raw := []byte(`{"channel":"0f8fad5b-d9cb-469f-a165-70867728950e","from":"member","to":"admin"}`)
	entry := auditEntry{Seq: 12345, At: "2026-11-28T10:00:00.000Z", Actor: "abcdefghijklmno", Action: "role.changed",
		Target: "bcdefghijklmnop", IP: "203.0.113.7", Device: "Firefox on Linux", PrevHash: "p"}
	for i := 0; i < b.N; i++ {
		entry.Details, _ = canonicalJSON(raw)
		_ = entry.hash()
	}
}
