package api

import (
	"encoding/json"
	"net/http"
)

// writeJSON writes v as the JSON body of a response with status code.
func writeJSON(w http.ResponseWriter, code int, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	_, err = w.Write(append(b, '\n'))
	return err
}

// writeBody writes b, JSON already encoded (with its final newline), as
// the body of a response with status code, as writeJSON would write it.
func writeBody(w http.ResponseWriter, code int, b []byte) error {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	_, err := w.Write(b)
	return err
}
