package main

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// The fields of prometheus-operator's monitoring.coreos.com/v1 kinds that
// banca's chart uses, named and typed as in the CRDs; anything else fails.

type ServiceMonitor struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata"`
	Spec              ServiceMonitorSpec `json:"spec"`
}

type ServiceMonitorSpec struct {
	Selector          metav1.LabelSelector `json:"selector"`
	Endpoints         []Endpoint           `json:"endpoints"`
	NamespaceSelector *NamespaceSelector   `json:"namespaceSelector,omitempty"`
	JobLabel          string               `json:"jobLabel,omitempty"`
}

type NamespaceSelector struct {
	Any        bool     `json:"any,omitempty"`
	MatchNames []string `json:"matchNames,omitempty"`
}

type Endpoint struct {
	Port          string `json:"port"`
	Path          string `json:"path,omitempty"`
	Scheme        string `json:"scheme,omitempty"`
	Interval      string `json:"interval,omitempty"`
	ScrapeTimeout string `json:"scrapeTimeout,omitempty"`
}

type PrometheusRule struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata"`
	Spec              PrometheusRuleSpec `json:"spec"`
}

type PrometheusRuleSpec struct {
	Groups []RuleGroup `json:"groups"`
}

type RuleGroup struct {
	Name     string `json:"name"`
	Interval string `json:"interval,omitempty"`
	Rules    []Rule `json:"rules"`
}

type Rule struct {
	Alert       string            `json:"alert,omitempty"`
	Record      string            `json:"record,omitempty"`
	Expr        string            `json:"expr"`
	For         string            `json:"for,omitempty"`
	Labels      map[string]string `json:"labels,omitempty"`
	Annotations map[string]string `json:"annotations,omitempty"`
}
