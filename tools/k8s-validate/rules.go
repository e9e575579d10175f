package main

import (
	"fmt"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	policyv1 "k8s.io/api/policy/v1"
	"k8s.io/apimachinery/pkg/labels"
)

// check applies the chart's own rules to a decoded object; each problem
// names the field.
func check(obj any) []string {
	switch o := obj.(type) {
	case *appsv1.StatefulSet:
		return checkStatefulSet(o)
	case *policyv1.PodDisruptionBudget:
		if o.Spec.Selector == nil || len(o.Spec.Selector.MatchLabels) == 0 {
			return []string{"spec.selector.matchLabels: empty (would select every pod)"}
		}
	case *networkingv1.NetworkPolicy:
		if len(o.Spec.PodSelector.MatchLabels) == 0 {
			return []string{"spec.podSelector.matchLabels: empty (would apply to every pod)"}
		}
	case *corev1.Service:
		if len(o.Spec.Selector) == 0 {
			return []string{"spec.selector: empty"}
		}
	case *PrometheusRule:
		return checkRules(o)
	case *ServiceMonitor:
		for i, e := range o.Spec.Endpoints {
			if err := parseDuration(e.Interval); err != nil {
				return []string{fmt.Sprintf("spec.endpoints[%d].interval: %v", i, err)}
			}
		}
	}
	return nil
}

func checkStatefulSet(s *appsv1.StatefulSet) []string {
	var p []string
	if s.Spec.Selector == nil {
		return []string{"spec.selector: missing"}
	}
	if !labels.SelectorFromSet(s.Spec.Selector.MatchLabels).Matches(labels.Set(s.Spec.Template.Labels)) {
		p = append(p, "spec.selector.matchLabels: does not match spec.template.metadata.labels")
	}
	if s.Spec.ServiceName == "" {
		p = append(p, "spec.serviceName: empty (a StatefulSet needs its headless Service)")
	}
	pod := s.Spec.Template.Spec
	if pod.SecurityContext == nil || pod.SecurityContext.RunAsNonRoot == nil || !*pod.SecurityContext.RunAsNonRoot {
		p = append(p, "spec.template.spec.securityContext.runAsNonRoot: not true")
	}
	mounts := map[string]bool{}
	for _, v := range pod.Volumes {
		mounts[v.Name] = true
	}
	for _, t := range s.Spec.VolumeClaimTemplates {
		mounts[t.Name] = true
	}
	for i, c := range pod.Containers {
		at := fmt.Sprintf("spec.template.spec.containers[%d]", i)
		if c.StartupProbe == nil || c.ReadinessProbe == nil || c.LivenessProbe == nil {
			p = append(p, at+": needs startupProbe, readinessProbe and livenessProbe")
		}
		sc := c.SecurityContext
		if sc == nil || sc.ReadOnlyRootFilesystem == nil || !*sc.ReadOnlyRootFilesystem {
			p = append(p, at+".securityContext.readOnlyRootFilesystem: not true")
		}
		if sc == nil || sc.AllowPrivilegeEscalation == nil || *sc.AllowPrivilegeEscalation {
			p = append(p, at+".securityContext.allowPrivilegeEscalation: not false")
		}
		if c.Resources.Requests == nil {
			p = append(p, at+".resources.requests: missing")
		}
		for j, m := range c.VolumeMounts {
			if !mounts[m.Name] {
				p = append(p, fmt.Sprintf("%s.volumeMounts[%d].name: no volume %q", at, j, m.Name))
			}
		}
	}
	return p
}

func checkRules(r *PrometheusRule) []string {
	var p []string
	for i, g := range r.Spec.Groups {
		for j, rule := range g.Rules {
			at := fmt.Sprintf("spec.groups[%d].rules[%d]", i, j)
			if (rule.Alert == "") == (rule.Record == "") {
				p = append(p, at+": needs exactly one of alert and record")
			}
			if rule.Expr == "" {
				p = append(p, at+".expr: empty")
			} else if err := parsePromQL(rule.Expr); err != nil {
				p = append(p, fmt.Sprintf("%s.expr: %v", at, err))
			}
			if err := parseDuration(rule.For); err != nil {
				p = append(p, fmt.Sprintf("%s.for: %v", at, err))
			}
		}
	}
	return p
}
