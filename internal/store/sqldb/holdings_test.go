package sqldb_test

import "github.com/drover-registry/drover/internal/livestock"

// twoHoldings are the holdings the group tests' requests concern; they
// are only read.
var twoHoldings = []livestock.CPH{livestock.MustCPH("01/100/0001"), livestock.MustCPH("01/100/0002")}
