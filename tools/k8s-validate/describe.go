package main

import (
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
)

// describeSecret gives a rendered Secret's items as text.
func describeSecret(s *corev1.Secret) map[string]any {
	items := map[string]string{}
	for k, v := range s.Data {
		items[k] = string(v)
	}
	for k, v := range s.StringData {
		items[k] = v
	}
	return map[string]any{"secret": s.Name, "items": items}
}

// describe gives each container of a StatefulSet as the smoke test needs
// it: exactly the rendered args and env, and where its Secrets come from.
func describe(s *appsv1.StatefulSet) []map[string]any {
	secrets := map[string]string{} // volume name -> Secret name
	for _, v := range s.Spec.Template.Spec.Volumes {
		if v.Secret != nil {
			secrets[v.Name] = v.Secret.SecretName
		}
	}
	var out []map[string]any
	for _, c := range s.Spec.Template.Spec.Containers {
		var env []map[string]string
		for _, e := range c.Env {
			item := map[string]string{"name": e.Name}
			switch {
			case e.ValueFrom == nil:
				item["value"] = e.Value
			case e.ValueFrom.FieldRef != nil:
				item["fieldRef"] = e.ValueFrom.FieldRef.FieldPath
			case e.ValueFrom.SecretKeyRef != nil:
				item["secret"] = e.ValueFrom.SecretKeyRef.Name
				item["key"] = e.ValueFrom.SecretKeyRef.Key
			}
			env = append(env, item)
		}
		var mounts []map[string]string
		for _, m := range c.VolumeMounts {
			mounts = append(mounts, map[string]string{"name": m.Name, "path": m.MountPath, "secret": secrets[m.Name]})
		}
		replicas := int32(1)
		if s.Spec.Replicas != nil {
			replicas = *s.Spec.Replicas
		}
		grpcPort, metricsPort := int32(0), int32(0)
		for _, p := range c.Ports {
			switch p.Name {
			case "grpc":
				grpcPort = p.ContainerPort
			case "metrics":
				metricsPort = p.ContainerPort
			}
		}
		readiness := ""
		if c.ReadinessProbe != nil && c.ReadinessProbe.GRPC != nil && c.ReadinessProbe.GRPC.Service != nil {
			readiness = *c.ReadinessProbe.GRPC.Service
		}
		out = append(out, map[string]any{
			"statefulset":      s.Name,
			"component":        s.Spec.Template.Labels["app.kubernetes.io/component"],
			"replicas":         replicas,
			"container":        c.Name,
			"command":          c.Command,
			"args":             c.Args,
			"env":              env,
			"mounts":           mounts,
			"grpcPort":         grpcPort,
			"metricsPort":      metricsPort,
			"readinessService": readiness,
		})
	}
	return out
}
