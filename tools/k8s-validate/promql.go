package main

import (
	"github.com/prometheus/common/model"
	"github.com/prometheus/prometheus/promql/parser"
)

// parsePromQL checks an alert's expression with Prometheus' own parser.
func parsePromQL(expr string) error {
	_, err := parser.NewParser(parser.Options{}).ParseExpr(expr)
	return err
}

// parseDuration checks a Prometheus duration ("30s", "5m"); empty is none.
func parseDuration(d string) error {
	if d == "" {
		return nil
	}
	_, err := model.ParseDuration(d)
	return err
}
