package api

import (
	"github.com/drover-registry/drover/internal/odata"
	"github.com/drover-registry/drover/internal/store"
)

// contentExpansions are the members of each request type's content that
// $expand may name below content (depth 2): its structured members, as
// the live definition's models have them. The stored content is sent
// whole, so naming them changes nothing but is not refused.
var contentExpansions = map[store.RequestType][]string{
	store.RequestTransfer:   {"movementGroups", "movementDocument", "deviceApplication", "processingFlags"},
	store.RequestCorrection: {"movementGroups", "movementDocument", "deviceApplication", "processingFlags"},
	store.RequestReview:     {"reviewMovement", "processingFlags"},
	store.RequestUndo:       {"processingFlags"},
}

// requestExpand is what $expand may name on a request of type typ.
func requestExpand(typ store.RequestType) []odata.Expansion {
	content := odata.Expansion{Name: "content"}
	for _, name := range contentExpansions[typ] {
		content.Nested = append(content.Nested, odata.Expansion{Name: name})
	}
	return []odata.Expansion{content}
}

// requestCollection is what the query options of a request collection
// may name: $filter and $orderby over the record's fields, $select over
// its members, $expand of its content, and $count.
func (s *Server) requestCollection(typ store.RequestType) odata.Collection {
	return odata.Collection{
		Fields: store.RequestFilterFieldsOf(typ), OrderBy: true, Key: []string{store.RequestKey},
		Members: jsonMembers(requestRecord{}), Expand: requestExpand(typ),
		Count: true, Format: true, MaxPage: s.cfg.MaxPage,
	}
}

// requestEntity is what the query options of one request may name:
// $select and $expand, as the live definition has them.
func (s *Server) requestEntity(typ store.RequestType) odata.Collection {
	return odata.Collection{Members: jsonMembers(requestRecord{}), Expand: requestExpand(typ), Format: true, MaxPage: s.cfg.MaxPage, Single: true}
}
