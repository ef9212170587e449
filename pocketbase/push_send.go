package main

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"os"
	"slices"
	"sync"
	"time"

	webpush "github.com/SherClockHolmes/webpush-go"
	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/core"
)

const (
	pushQueueSize   = 10_000
	pushWorkers     = 4
	pushParallel    = 8               // pushes of one message in flight at once
	pushEvery       = 5 * time.Second // at most one push per user and conversation this often
	pushTTL         = 24 * 60 * 60    // seconds a push service keeps an undelivered push
	ringTTL         = 60              // a ring is worth nothing a minute later
	pushSendTimeout = 15 * time.Second
	// The payload travels in one 4096-byte record: 4096 - 16 (tag) - 86 (header) - 1 (delimiter).
	// A message whose ciphertext does not fit is announced by its id only.
	pushMaxPayload = 3993
)

// pushPayload is what the browser's service worker receives (decrypted by the browser from the
// push service's RFC 8291 record): the message's ciphertext and what it needs to open and show it.
type pushPayload struct {
	V            int    `json:"v"`
	Conversation string `json:"c"`
	Name         string `json:"n"`           // the channel's name (a direct conversation's is not shown)
	Direct       bool   `json:"d,omitempty"` // a direct conversation
	MLS          bool   `json:"mls,omitempty"`
	Message      string `json:"m"`
	Sender       string `json:"s"`
	SenderName   string `json:"u"`
	Created      string `json:"t"`
	Thread       string `json:"r,omitempty"`
	Ciphertext   string `json:"e,omitempty"`
	Kind         string `json:"k,omitempty"` // "call": the sender is calling (Message and Ciphertext empty)
}

// pushes is the process's push sender (registerPush), for what else than messages pushes (calls.go).
var pushes *pushSender

type pushJob struct {
	record *core.Record
	at     time.Time
	// a ring instead of a message: the direct conversation and who calls
	ring *ringJob
}

type pushSender struct {
	app     core.App
	fetcher *safeFetcher
	keys    vapidKeys
	queue   chan pushJob
	once    sync.Once

	pushed *onceEvery // "user conversation": at most one push every pushEvery

	rules *rulesIndex // who asked for every message of a conversation (push_candidates.go)
	away  *awayMail   // the email notifications of those with no page open (notify_mail.go)
}

func newPushSender(app core.App, fetcher *safeFetcher) *pushSender {
	return &pushSender{app: app, fetcher: fetcher, queue: make(chan pushJob, pushQueueSize), pushed: newOnceEvery(pushEvery), rules: newRulesIndex(), away: newAwayMail()}
}

func (s *pushSender) start(keys vapidKeys) {
	s.once.Do(func() {
		s.keys = keys
		for range pushWorkers {
			go func() {
				for job := range s.queue {
					s.deliver(job)
				}
			}()
		}
	})
}

// enqueue never blocks the request that created the message: a full queue drops the push.
func (s *pushSender) enqueue(record *core.Record) {
	select {
	case s.queue <- pushJob{record: record, at: time.Now()}:
	default:
		s.app.Logger().Warn("web push: queue full, push dropped", "message", record.Id)
	}
}

// targets are the members who should get a push (for a message, or a ring): not its sender, their rules
// want it, no open page (no live stream through any web process, no realtime subscription), and none
// went to them under dueKey in the last pushEvery. Only the candidates (push_candidates.go) are
// looked at: the mentioned members and those whose rules ask for every message of the channel, or
// every member of a direct conversation.
func (s *pushSender) targets(senderID string, mentions []string, channel *core.Record, dueKey string, now time.Time) []string {
	direct := channel.GetBool("direct")
	var candidates []string
	if direct {
		users, err := members.of(s.app, channel.Id)
		if err != nil {
			return nil
		}
		candidates = users
	} else {
		all, err := s.rules.wantsAll(s.app, channel.Id)
		if err != nil {
			return nil
		}
		candidates = append(all, mentions...)
	}
	seen := make(map[string]bool, len(candidates))
	unique := candidates[:0:0]
	for _, id := range candidates {
		if id != senderID && !seen[id] {
			seen[id] = true
			unique = append(unique, id)
		}
	}
	if len(unique) == 0 {
		return nil
	}
	rules, err := candidateRules(s.app, channel.Id, unique)
	if err != nil {
		return nil
	}
	mentioned := make(map[string]bool, len(mentions))
	for _, id := range mentions {
		mentioned[id] = true
	}
	pageOpen := openPages(s.app)
	var out []string
	for _, id := range unique {
		r, member := rules[id]
		if !member || !r.wants(channel.Id, direct, mentioned[id], now) {
			continue
		}
		if !pageOpen(id) && s.pushed.pass(id+" "+dueKey, now) {
			out = append(out, id)
		}
	}
	return out
}

func (s *pushSender) deliver(job pushJob) {
	if job.ring != nil {
		s.deliverRing(job)
		return
	}
	record := job.record
	channel, err := s.app.FindRecordById("channels", record.GetString("channel"))
	if err != nil {
		return
	}
	var mentions []string
	_ = json.Unmarshal([]byte(record.GetString("mentions")), &mentions)
	// (a reply notifies those who take part in its thread as a mention does, ADR 23; its mail says
	// "a new message", as the page's own mail about it does, and "mentioned you" only to the mentioned)
	forThem := append(slices.Clone(mentions), threadPeople(s.app, record)...)
	targets := s.targets(record.GetString("sender"), forThem, channel, channel.Id, job.at)
	if len(targets) == 0 {
		return
	}
	payload := pushPayload{
		V: 1, Conversation: channel.Id, Name: channel.GetString("name"), Direct: channel.GetBool("direct"),
		MLS: channel.GetBool("direct") || channel.GetBool("sealed"), Message: record.Id,
		Sender: record.GetString("sender"), Created: record.GetDateTime("created").String(),
		Thread: record.GetString("thread"), Ciphertext: record.GetString("encrypted_content"),
	}
	payload.SenderName = usernameOf(s.app, payload.Sender)
	mentioned := make(map[string]bool, len(mentions))
	for _, id := range mentions {
		mentioned[id] = true
	}
	s.pushTo(targets, channel, payload)
	s.away.send(s.app, targets, channel, record, payload.SenderName, mentioned, job.at)
}

// pushTo sends the payload to every push subscription of the targets.
func (s *pushSender) pushTo(targets []string, channel *core.Record, payload pushPayload) {
	if len(targets) == 0 {
		return
	}
	ids := make([]any, len(targets))
	for i, id := range targets {
		ids[i] = id
	}
	subs, err := s.app.FindAllRecords("push_subscriptions", dbx.In("owner", ids...))
	if err != nil || len(subs) == 0 {
		return
	}
	body, _ := json.Marshal(payload)
	if len(body) > pushMaxPayload {
		payload.Ciphertext = ""
		body, _ = json.Marshal(payload)
	}
	topic := sha256.Sum256([]byte(channel.Id))
	options := &webpush.Options{
		HTTPClient:      s.fetcher.client,
		Subscriber:      s.contact(),
		Topic:           base64.RawURLEncoding.EncodeToString(topic[:])[:32], // collapses a conversation's undelivered pushes
		TTL:             pushTTL,
		Urgency:         webpush.UrgencyHigh,
		VAPIDPublicKey:  s.keys.Public,
		VAPIDPrivateKey: s.keys.Private,
	}
	if payload.Kind == "call" {
		options.TTL = ringTTL
	}
	// one message's pushes go out pushParallel at a time (each is its own connection to a push service)
	slots := make(chan struct{}, pushParallel)
	var wg sync.WaitGroup
	for _, sub := range subs {
		slots <- struct{}{}
		wg.Add(1)
		go func() {
			defer func() { <-slots; wg.Done() }()
			s.send(sub, body, options)
		}()
	}
	wg.Wait()
}

// contact is the VAPID "sub" claim push services may write to: PUSH_CONTACT (an https: or mailto:
// address), else the mail sender address of PocketBase's settings.
func (s *pushSender) contact() string {
	if c := os.Getenv("PUSH_CONTACT"); c != "" {
		return c
	}
	if a := s.app.Settings().Meta.SenderAddress; a != "" {
		return "mailto:" + a
	}
	return "mailto:admin@localhost"
}

// send posts one push; a subscription its push service no longer knows (404, 410) is dropped.
func (s *pushSender) send(sub *core.Record, body []byte, options *webpush.Options) {
	ctx, cancel := context.WithTimeout(context.Background(), pushSendTimeout)
	defer cancel()
	res, err := webpush.SendNotificationWithContext(ctx, body, &webpush.Subscription{
		Endpoint: sub.GetString("endpoint"),
		Keys:     webpush.Keys{P256dh: sub.GetString("p256dh"), Auth: sub.GetString("auth")},
	}, options)
	if err != nil {
		s.app.Logger().Warn("web push: push service unreachable", "subscription", sub.Id, "error", err.Error())
		return
	}
	res.Body.Close()
	switch {
	case res.StatusCode == 404 || res.StatusCode == 410:
		if err := s.app.Delete(sub); err != nil {
			s.app.Logger().Warn("web push: could not drop a gone subscription", "subscription", sub.Id, "error", err.Error())
		}
	case res.StatusCode >= 300:
		s.app.Logger().Warn("web push: push service refused", "subscription", sub.Id, "status", res.StatusCode)
	}
}
