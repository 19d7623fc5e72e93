// Package onrequest is the reference client of the On Request A2A extension: it reads the card's declaration,
// reads reply objects from messages, streams and artifacts, recognises addresses, phrases and amounts in text, and
// is the reference relay an assistant follows when it passes a reply on. The on-request suite grades agents with it.
package onrequest
