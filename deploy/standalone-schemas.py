"""Kubernetes JSON schemas for kubeconform from the kubernetes-validate wheel: that wheel's schemas refer to one
shared definitions file by an absolute path; each kind the chart renders is written here standalone, with the
definitions it uses inlined. Usage: standalone-schemas.py WHEEL VERSION_DIR OUT_DIR"""
import json, os, re, sys, zipfile

KINDS = ['statefulset-apps-v1', 'service-v1', 'horizontalpodautoscaler-autoscaling-v2', 'poddisruptionbudget-policy-v1', 'secret-v1']
REF = '/api/_definitions.json#/$defs/'

wheel, version, out = sys.argv[1:4]
base = f'kubernetes_validate/kubernetes-json-schema/{version}/'
with zipfile.ZipFile(wheel) as z:
    defs = json.loads(z.read(base + '_definitions.json'))['$defs']
    os.makedirs(out, exist_ok=True)
    for kind in KINDS:
        text = z.read(base + kind + '.json').decode().replace(REF, '#/$defs/')
        schema, needed, todo = json.loads(text), {}, re.findall(r'#/\$defs/([^"]+)', text)
        while todo:
            name = todo.pop()
            if name in needed:
                continue
            needed[name] = json.loads(json.dumps(defs[name]).replace(REF, '#/$defs/'))
            todo += re.findall(r'#/\$defs/([^"]+)', json.dumps(needed[name]))
        schema['$defs'] = needed
        schema.pop('$id', None)
        with open(os.path.join(out, kind + '.json'), 'w') as f:
            json.dump(schema, f)
