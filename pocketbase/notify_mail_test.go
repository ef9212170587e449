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

// A notification mail links to the message in the app: its thread for a reply, the conversation at the
// message otherwise; without the app's address, no link.
func TestNotificationLink(t *testing.T) {
	for _, c := range []struct{ app, conversation, message, thread, want string }{
		{"https://chat.example.test/", "c1", "m1", "", "https://chat.example.test/c/c1/m/m1"},
		{"https://chat.example.test", "c1", "m2", "root", "https://chat.example.test/c/c1/t/root"},
		{"", "c1", "m1", "", ""},
		{"https://chat.example.test", "", "m1", "", ""},
	} {
		if got := notificationLink(c.app, c.conversation, c.message, c.thread); got != c.want {
			t.Errorf("notificationLink(%q, %q, %q, %q) = %q, want %q", c.app, c.conversation, c.message, c.thread, got, c.want)
		}
	}
	m := composeNotification(notificationAbout{Sender: "alice", Channel: "ops", Mention: true, Link: "https://chat.example.test/c/c1/m/m1?a=<b>"})
	if !strings.Contains(m.HTML, `<a href="https://chat.example.test/c/c1/m/m1?a=&lt;b&gt;">Open ChatCrypt</a> to read it.`) {
		t.Errorf("html without its link: %s", m.HTML)
	}
	if !strings.HasSuffix(m.Text, "\n\nhttps://chat.example.test/c/c1/m/m1?a=<b>") || !strings.Contains(m.Text, "Open ChatCrypt to read it.") {
		t.Errorf("text without its link: %q", m.Text)
	}
	if plain := composeNotification(notificationAbout{Sender: "alice", Channel: "ops"}); strings.Contains(plain.HTML, "href") {
		t.Errorf("a link without the app's address: %s", plain.HTML)
	}
}
