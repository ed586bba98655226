#!/usr/bin/env python3
"""Generates src/io/kube_schema_tables.cc: the JSON field names and Go types of
the Kubernetes API structs gpusched decodes strictly, read from the Go sources
of k8s.io/api and k8s.io/apimachinery (json tags), so that strict decoding
knows every valid field and the Go type names kubectl's errors print.

  scripts/gen_kube_schema.py CORE_TYPES_GO APPS_GO BATCH_GO SCHEDULING_GO META_GO API_COMMIT MACHINERY_COMMIT > src/io/kube_schema_tables.cc
"""
import re
import sys

# Structs whose fields are checked (unknown fields refused); every other
# struct is only checked to be an object.
CHECKED = {
    'core': ['Pod', 'PodSpec', 'PodStatus', 'Container', 'ResourceRequirements', 'Toleration', 'Affinity',
             'NodeAffinity', 'NodeSelector', 'NodeSelectorTerm', 'NodeSelectorRequirement',
             'PreferredSchedulingTerm', 'PodAffinity', 'PodAntiAffinity', 'PodAffinityTerm',
             'WeightedPodAffinityTerm', 'Node', 'NodeSpec', 'NodeStatus', 'Taint', 'PodTemplateSpec',
             'TopologySpreadConstraint', 'PodSchedulingGate', 'PodResourceClaim', 'ResourceClaim',
             'ContainerPort', 'EnvVar', 'VolumeMount', 'PodList', 'NodeList'],
    'apps': ['Deployment', 'DeploymentSpec', 'ReplicaSet', 'ReplicaSetSpec', 'StatefulSet', 'StatefulSetSpec',
             'DaemonSet', 'DaemonSetSpec'],
    'batch': ['Job', 'JobSpec', 'CronJob', 'CronJobSpec', 'JobTemplateSpec'],
    'sched': ['PriorityClass'],
    'meta': ['ObjectMeta', 'OwnerReference', 'LabelSelector', 'LabelSelectorRequirement', 'TypeMeta', 'ListMeta'],
}
# Types that read themselves (UnmarshalJSON): any JSON value is theirs to judge.
CUSTOM = {'resource.Quantity': 'resource.Quantity', 'intstr.IntOrString': 'intstr.IntOrString',
          'metav1.Time': 'v1.Time', 'Time': 'v1.Time', 'metav1.MicroTime': 'v1.MicroTime',
          'metav1.Duration': 'v1.Duration', 'runtime.RawExtension': 'runtime.RawExtension',
          'metav1.FieldsV1': 'v1.FieldsV1', 'FieldsV1': 'v1.FieldsV1', 'MicroTime': 'v1.MicroTime'}
INTS = {'int32': 'kInt32', 'int64': 'kInt64', 'int': 'kInt64', 'uint32': 'kUint32', 'uint64': 'kUint64',
        'int16': 'kInt32', 'uint16': 'kUint32', 'uint8': 'kUint32', 'int8': 'kInt32'}

def parse(path, pkg):
    src = open(path).read()
    structs, named = {}, {}
    for m in re.finditer(r'^type (\w+) struct \{\n(.*?)^\}', src, re.S | re.M):
        fields = []
        for line in m.group(2).split('\n'):
            line = line.strip()
            if not line or line.startswith('//'):
                continue
            fm = re.match(r'^(?:(\w+)\s+)?([\w\.\*\[\]]+)\s+`json:"([^"]*)"', line)
            if not fm:
                continue
            name, typ, tag = fm.groups()
            json_name = tag.split(',')[0]
            if ',inline' in tag or (name is None and json_name == ''):
                fields.append(('__inline__', typ))
                continue
            if json_name == '-':
                continue
            fields.append((json_name, typ))
        structs[m.group(1)] = fields
    for m in re.finditer(r'^type (\w+) ((?:\[\]|map\[\w+\]|\*)?[\w\.]+)\s*$', src, re.M):
        named[m.group(1)] = m.group(2)
    return structs, named

PKGS = {}
def main():
    core, apps, batch, sched, meta, api_commit, machinery_commit = sys.argv[1:8]
    for key, path in [('core', core), ('apps', apps), ('batch', batch), ('sched', sched), ('meta', meta)]:
        PKGS[key] = parse(path, key)

    def lookup(typ, pkg):
        """(package key, bare name) of a named type used in package pkg."""
        if typ.startswith('metav1.'):
            return 'meta', typ[7:]
        if typ.startswith('v1.') or typ.startswith('corev1.') or typ.startswith('apiv1.'):
            return 'core', typ.split('.', 1)[1]
        if '.' in typ:
            return None, typ
        return pkg, typ

    out_structs = {}
    order = []

    def go_name(typ, pkg):
        """reflect.Type.String() of typ (pointers stripped: Go reports the element)."""
        typ = typ.lstrip('*')
        if typ.startswith('[]'):
            return '[]' + go_name(typ[2:], pkg)
        if typ.startswith('map['):
            k, v = re.match(r'map\[(\w+)\](.*)', typ).groups()
            return 'map[%s]%s' % (k, go_name(v, pkg))
        if typ in CUSTOM:
            return CUSTOM[typ]
        if typ in ('string', 'bool', 'float64', 'float32') or typ in INTS:
            return typ
        p, n = lookup(typ, pkg)
        if p is None:
            return typ
        return 'types.UID' if n == 'UID' and p == 'meta' else 'v1.' + n

    def kind(typ, pkg):
        """(kind, struct key or None, element kind, element struct) of a Go type."""
        typ = typ.lstrip('*')
        if typ in CUSTOM:
            return ('kAny', None)
        if typ == 'types.UID':
            return ('kString', None)
        if typ == 'string':
            return ('kString', None)
        if typ == 'bool':
            return ('kBool', None)
        if typ in ('float64', 'float32'):
            return ('kFloat', None)
        if typ in INTS:
            return (INTS[typ], None)
        if typ.startswith('[]'):
            if typ == '[]byte':
                return ('kString', None)
            return ('kSlice', None)
        if typ.startswith('map['):
            return ('kMap', None)
        p, n = lookup(typ, pkg)
        if p is None:
            return ('kAny', None)
        structs, named = PKGS[p]
        if n in structs:
            return ('kStruct', (p, n))
        if n in named:
            base = named[n]
            k = kind(base if not base.startswith('[]') and not base.startswith('map[') else base, p)
            return k
        if n in ('Time', 'MicroTime', 'Duration', 'FieldsV1'):
            return ('kAny', None)
        return ('kAny', None)

    def elem(typ, pkg):
        typ = typ.lstrip('*')
        p, n = lookup(typ, pkg)
        if typ.startswith('[]'):
            return typ[2:], pkg
        if typ.startswith('map['):
            return re.match(r'map\[\w+\](.*)', typ).group(1), pkg
        if p is not None and n in PKGS[p][1]:
            base = PKGS[p][1][n]
            return elem(base, p)
        return None, pkg

    def describe(typ, pkg):
        """C++ FieldType initializer for a value of Go type typ."""
        k, st = kind(typ, pkg)
        d = {'kind': k, 'go': go_name(typ, pkg), 'struct': None, 'elem': None}
        if k == 'kStruct':
            d['struct'] = st
            want(st)
        if k in ('kSlice', 'kMap'):
            et, ep = elem(typ, pkg)
            d['elem'] = describe(et, ep)
        return d

    def want(key):
        if key in out_structs or key == 'pending':
            return
        out_structs[key] = 'pending'
        p, n = key
        fields = []
        for json_name, typ in PKGS[p][0][n]:
            if json_name == '__inline__':
                t = typ.lstrip('*')
                ip, iname = lookup(t, p)
                for f in PKGS[ip][0][iname]:
                    fields.append((f[0], describe(f[1], ip)))
                continue
            fields.append((json_name, describe(typ, p)))
        out_structs[key] = fields
        order.append(key)

    for p, names in CHECKED.items():
        for n in names:
            want((p, n))

    checked = {(p, n) for p, names in CHECKED.items() for n in names}
    print('// Generated by scripts/gen_kube_schema.py from k8s.io/api %s and' % api_commit)
    print('// k8s.io/apimachinery %s (json tags of the types.go files). Do not edit.' % machinery_commit)
    print('#include "gpusched/io/kube_schema.h"\n')
    print('namespace gpusched {\nnamespace {\n')
    def cname(key):
        return 'k%s_%s' % (key[0].capitalize(), key[1])
    for key in order:
        print('extern const StructSchema %s;' % cname(key))
    print()
    counter = [0]
    def emit_type(d):
        elem_ref = 'nullptr'
        if d['elem'] is not None:
            counter[0] += 1
            nm = 'kElem%d' % counter[0]
            inner = emit_type(d['elem'])
            print('const FieldType %s = %s;' % (nm, inner))
            elem_ref = '&' + nm
        st = '&' + cname(d['struct']) if d['struct'] else 'nullptr'
        return '{FieldKind::%s, "%s", %s, %s}' % (d['kind'], d['go'], st, elem_ref)
    bodies = []
    for key in order:
        fields = out_structs[key]
        rows = []
        for json_name, d in fields:
            rows.append('    {"%s", %s},' % (json_name, emit_type(d)))
        bodies.append((key, rows))
    for key, rows in bodies:
        print('const FieldSchema %sFields[] = {' % cname(key))
        print('\n'.join(rows))
        print('};')
        print('const StructSchema %s = {"%s", %s, %sFields, sizeof(%sFields) / sizeof(%sFields[0])};\n' %
              (cname(key), key[1], 'true' if key in checked else 'false', cname(key), cname(key), cname(key)))
    print('}  // namespace\n')
    print('const StructSchema* FindStructSchema(std::string_view name) {')
    print('  static const StructSchema* const kAll[] = {%s};' % ', '.join('&' + cname(k) for k in order))
    print('  for (const StructSchema* s : kAll)')
    print('    if (name == s->go_name) return s;')
    print('  return nullptr;\n}\n')
    print('std::vector<const StructSchema*> AllStructSchemas() {')
    print('  return {%s};' % ', '.join('&' + cname(k) for k in order))
    print('}\n\n}  // namespace gpusched')

main()
