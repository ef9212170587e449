package main

import (
	"encoding/binary"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/types"
)

// Signing out must end the session even when the disk is full (ADR 66). A revocation is kept in
// memory at once (every request's token is checked against it) and written to revoked_tokens; when
// that write fails, it goes into the revocation journal: a file of fixed slots written in full when
// PocketBase starts, so recording one later overwrites space the file already has and needs no new
// disk space. At the next start the journal's revocations are read back into memory and moved into
// revoked_tokens once that can be written.
const (
	revocationJournalName = "revocations.journal"
	revocationSlots       = 4096
	revocationSlotSize    = 48 // 32-byte token hash, 8-byte expiry (Unix seconds), 8 spare
)

var errJournalFull = errors.New("every slot of the revocation journal is taken")

type revocationStore struct {
	mu      sync.Mutex
	revoked map[string]time.Time // token hash (hex) → until when it would have been valid
	journal *os.File
}

var revocations = &revocationStore{revoked: map[string]time.Time{}}

// has reports whether the token with this hash was revoked while its revocation could not be written
// to the database (or has not been moved there yet).
func (s *revocationStore) has(hash string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	until, ok := s.revoked[hash]
	if ok && time.Now().After(until) {
		delete(s.revoked, hash)
		return false
	}
	return ok
}

func (s *revocationStore) remember(hash string, until time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.revoked[hash] = until
}

// record writes the revocation into a free (or expired) slot of the journal and syncs it.
func (s *revocationStore) record(hash string, until time.Time) error {
	raw, err := hex.DecodeString(hash)
	if err != nil || len(raw) != 32 {
		return errors.New("not a token hash")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.journal == nil {
		return errors.New("the revocation journal is not open")
	}
	slot := make([]byte, revocationSlotSize)
	now := time.Now().Unix()
	for i := int64(0); i < revocationSlots; i++ {
		if _, err := s.journal.ReadAt(slot, i*revocationSlotSize); err != nil {
			return err
		}
		expires := int64(binary.BigEndian.Uint64(slot[32:40]))
		if expires != 0 && expires > now {
			continue
		}
		copy(slot, raw)
		binary.BigEndian.PutUint64(slot[32:40], uint64(until.Unix()))
		if _, err := s.journal.WriteAt(slot, i*revocationSlotSize); err != nil {
			return err
		}
		return s.journal.Sync()
	}
	return errJournalFull
}

// open prepares the journal in the data directory (every slot written, so later writes need no new
// space), reads its revocations back into memory and moves those it can into revoked_tokens.
func (s *revocationStore) open(app core.App) error {
	path := filepath.Join(app.DataDir(), revocationJournalName)
	file, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return err
	}
	size := int64(revocationSlots * revocationSlotSize)
	if info, err := file.Stat(); err == nil && info.Size() < size {
		if _, err := file.WriteAt(make([]byte, size-info.Size()), info.Size()); err != nil {
			file.Close()
			return err
		}
		if err := file.Sync(); err != nil {
			file.Close()
			return err
		}
	}
	s.mu.Lock()
	s.journal = file
	s.mu.Unlock()
	slot := make([]byte, revocationSlotSize)
	now := time.Now()
	for i := int64(0); i < revocationSlots; i++ {
		if _, err := file.ReadAt(slot, i*revocationSlotSize); err != nil {
			return err
		}
		expires := int64(binary.BigEndian.Uint64(slot[32:40]))
		if expires == 0 {
			continue
		}
		until := time.Unix(expires, 0)
		hash := hex.EncodeToString(slot[:32])
		if until.After(now) {
			s.remember(hash, until)
			dt, _ := types.ParseDateTime(until.UTC())
			if revokeTokenHash(app, hash, dt) != nil {
				continue // stays in the journal and in memory until it can be written
			}
		}
		s.mu.Lock()
		delete(s.revoked, hash)
		_, err := file.WriteAt(make([]byte, revocationSlotSize), i*revocationSlotSize)
		s.mu.Unlock()
		if err != nil {
			return err
		}
	}
	return file.Sync()
}

// revokeDurably revokes the token with this hash: in memory at once, then in revoked_tokens (through
// `write`, which also ends its session row), else in the journal. It answers an error only when
// neither could be written: the token is still refused until PocketBase stops.
func revokeDurably(app core.App, hash string, expires types.DateTime, write func() error) error {
	until := expires.Time()
	if until.IsZero() {
		until = time.Now().Add(8 * 24 * time.Hour)
	}
	revocations.remember(hash, until)
	err := write()
	if err == nil {
		return nil
	}
	relay.revoke(hash) // no revoked_tokens record was created to trigger it (relay_routes.go)
	touched.Delete(hash)
	if journalErr := revocations.record(hash, until); journalErr != nil {
		app.Logger().Error("a sign-out could not be recorded: its token is refused only until PocketBase stops",
			"error", err, "journal", journalErr)
		return err
	}
	app.Logger().Warn("a sign-out was recorded in the revocation journal: the database could not be written", "error", err)
	return nil
}

func registerRevocations(app core.App) {
	app.OnServe().BindFunc(func(se *core.ServeEvent) error {
		if err := revocations.open(se.App); err != nil {
			se.App.Logger().Error("the revocation journal could not be prepared: a sign-out on a full disk lasts only until PocketBase stops",
				"error", err)
		}
		return se.Next()
	})
}
