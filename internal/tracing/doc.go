// Package tracing answers the questions a registry exists for on the day a
// disease is confirmed: where an animal has been and what it lived beside
// (History, Stays, Residents), what was on a holding on a date (Register),
// and every holding a disease could have reached from a holding or an
// animal, hop by hop, forwards and backwards in time (Trace).
//
// It reads the registry through store.TraceStore only, whose reads are
// index ranges over the holdings and dates asked for: each question costs
// what it reaches, not the size of the registry.
//
// Two views of a movement are used. A trace follows every movement that
// stands (awaiting review, completed or accepted): animals in transit to a
// keeper who has not yet reviewed them have still made the journey, and a
// disease does not wait for the paperwork. An animal's stays, and so a
// register, follow the registry's own record of where each animal is: an
// animal arrives when its movement completes or a review accepts it, and a
// rejected animal never left.
package tracing
