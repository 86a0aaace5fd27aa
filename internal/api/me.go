package api

import (
	"net/http"

	"github.com/drover-registry/drover/internal/auth"
	"github.com/drover-registry/drover/internal/livestock"
)

type meBody struct {
	UserName string        `json:"userName"`
	Role     string        `json:"role"`
	Holdings []holdingBody `json:"holdings"`
}

type holdingBody struct {
	Holding string `json:"holding"`
	Type    string `json:"type"`
	MHS     string `json:"mhs,omitempty"`
}

// me answers who is signed in and which holdings they may act for.
func (s *Server) me(w http.ResponseWriter, r *http.Request) error {
	u, ok := auth.UserFrom(r.Context())
	if !ok {
		return livestock.Errorf(livestock.KindUnauthenticated, "no signed-in user")
	}
	body := meBody{UserName: u.Name, Role: string(u.Role), Holdings: []holdingBody{}}
	for _, h := range u.Holdings {
		body.Holdings = append(body.Holdings, holdingBody{Holding: h.CPH.String(), Type: string(h.Type), MHS: h.MHS.String()})
	}
	return writeJSON(w, http.StatusOK, body)
}
