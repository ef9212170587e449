package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

// The call server's rooms as PocketBase reads them (call_records.go): LiveKit's RoomService ListRooms,
// over its Twirp JSON API, with a short token that may only list rooms.

type liveKitRoom struct {
	Sid            string `json:"sid"`
	Name           string `json:"name"`
	CreationTimeMs int64  `json:"creation_time_ms,string"`
	// how long LiveKit keeps the room once the last person left (seconds)
	DepartureTimeout int `json:"departure_timeout"`
}

type liveKitRooms struct {
	url    string
	key    string
	secret []byte
	client *http.Client
}

func newLiveKitRooms(apiURL, key, secret string) *liveKitRooms {
	return &liveKitRooms{
		url:    strings.TrimRight(apiURL, "/") + "/twirp/livekit.RoomService/ListRooms",
		key:    key,
		secret: []byte(secret),
		client: &http.Client{Timeout: 5 * time.Second},
	}
}

func (l *liveKitRooms) token() (string, error) {
	now := time.Now()
	claims := jwt.MapClaims{
		"iss":   l.key,
		"nbf":   now.Add(-10 * time.Second).Unix(),
		"exp":   now.Add(time.Minute).Unix(),
		"video": map[string]any{"roomList": true},
	}
	return jwt.NewWithClaims(jwt.SigningMethodHS256, claims).SignedString(l.secret)
}

func (l *liveKitRooms) list() ([]liveKitRoom, error) {
	token, err := l.token()
	if err != nil {
		return nil, err
	}
	request, err := http.NewRequest(http.MethodPost, l.url, bytes.NewReader([]byte("{}")))
	if err != nil {
		return nil, err
	}
	request.Header.Set("Authorization", "Bearer "+token)
	request.Header.Set("Content-Type", "application/json")
	response, err := l.client.Do(request)
	if err != nil {
		return nil, err
	}
	defer response.Body.Close()
	body, err := io.ReadAll(io.LimitReader(response.Body, 4<<20))
	if err != nil {
		return nil, err
	}
	if response.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("ListRooms answered %d", response.StatusCode)
	}
	var answer struct {
		Rooms []liveKitRoom `json:"rooms"`
	}
	if err := json.Unmarshal(body, &answer); err != nil {
		return nil, err
	}
	return answer.Rooms, nil
}
