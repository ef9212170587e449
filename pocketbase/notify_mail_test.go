package main

import (
	"strings"
	"testing"
	"time"
)

func TestNotificationMailOfADirectMessageNamesNoConversation(t *testing.T) {
	for _, mention := range []bool{false, true} {
		m := composeNotification(notificationAbout{Sender: "alice", Channel: "", Direct: true, Mention: mention})
		all := m.Subject + "\n" + m.Text + "\n" + m.HTML
		if strings.Contains(all, "#") || strings.Contains(strings.ToLower(all), "channel") {
			t.Fatalf("a direct message's mail names a conversation or says channel: %q", all)
		}
	}
	if m := composeNotification(notificationAbout{Sender: "alice", Direct: true}); m.Subject != "New direct message" {
		t.Fatalf("subject %q", m.Subject)
	}
}

func TestNotificationMailKeepsNamesOnOneLineAndEscapesThem(t *testing.T) {
	m := composeNotification(notificationAbout{Sender: "eve\r\nBcc: x@y", Channel: "a<b>", Mention: true})
	if strings.ContainsAny(m.Subject, "\r\n") || strings.Contains(m.Text, "eve\r\n") {
		t.Fatalf("a line break got through: %q / %q", m.Subject, m.Text)
	}
	if !strings.Contains(m.HTML, "#a&lt;b&gt;") || strings.Contains(m.HTML, "<b>") {
		t.Fatalf("not escaped: %q", m.HTML)
	}
}

func TestAwayMailOncePerConversationForAWhileAndTenAnHour(t *testing.T) {
	m := newAwayMail()
	now := time.Now()
	if !m.due("u", "c1", now) || m.due("u", "c1", now.Add(time.Minute)) {
		t.Fatal("a second mail about one conversation within minutes")
	}
	if !m.due("u", "c1", now.Add(awayMailEvery)) {
		t.Fatal("no mail once the while has passed")
	}
	sent := 2
	for i := 2; i < 20; i++ {
		if m.due("u", "c"+string(rune('a'+i)), now.Add(awayMailEvery+time.Duration(i)*time.Second)) {
			sent++
		}
	}
	if sent != awayMailsPerHour {
		t.Fatalf("%d mails in an hour, want %d", sent, awayMailsPerHour)
	}
	if !m.due("v", "c1", now) {
		t.Fatal("another person's mail was held back")
	}
}
