package main

import (
	"fmt"
	"net/http"
	"sync/atomic"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"

	"github.com/drover-registry/drover/internal/livestock"
)

// tokens are the bearer tokens of the sandbox users the mix acts as.
type tokens struct{ keeper1, keeper2, inspector string }

// mix makes the requests of the load, in turns of four: a transfer by
// keeper1, one by keeper2 (each from its producer holding to its own sale
// yard, so no review), a page of keeper1's requests, a page of everything
// (the inspector). Each POST has its own trackingId and correlation id.
func mix(base string, tok tokens, run string) vegeta.Targeter {
	var n atomic.Int64
	today := livestock.UKDate(time.Now()).String() // the registry's today
	transfer := func(token, holding, sale, mark string, i int64) vegeta.Target {
		id := fmt.Sprintf("%s-%09d", run, i)
		body := fmt.Appendf(nil, `{"content":{"transferDate":"%s","species":"Sheep","userHolding":"%s",`+
			`"sourceHolding":"%s","destinationHolding":"%s","animalCount":1,"trackingId":"%s",`+
			`"movementGroups":[{"devices":[{"tagNumber":"UK0%s %05d"}]}]}}`, today, holding, holding, sale, id, mark, 1+i%25)
		return vegeta.Target{Method: http.MethodPost, URL: base + "/v1/TransferRequests", Body: body, Header: http.Header{
			"Authorization": {"Bearer " + token}, "Content-Type": {"application/json"}, "X-Correlation-ID": {id}}}
	}
	page := func(token string) vegeta.Target {
		return vegeta.Target{Method: http.MethodGet, URL: base + "/v1/TransferRequests?$top=20",
			Header: http.Header{"Authorization": {"Bearer " + token}}}
	}
	return func(t *vegeta.Target) error {
		switch i := n.Add(1); i % 4 {
		case 0:
			*t = transfer(tok.keeper1, "01/100/0257", "01/100/0258", "130181", i)
		case 1:
			*t = transfer(tok.keeper2, "01/100/0264", "01/100/0265", "130186", i)
		case 2:
			*t = page(tok.keeper1)
		default:
			*t = page(tok.inspector)
		}
		return nil
	}
}
