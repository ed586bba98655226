#!/usr/bin/env python3
"""Generates src/io/kube_schema_tables.cc: the JSON field names and Go types of
the Kubernetes API structs gpusched decodes strictly, read from the Go sources
of k8s.io/api and k8s.io/apimachinery (json tags), so that strict decoding
knows every valid field and the Go type names kubectl's errors print.

  scripts/gen_kube_schema.py CORE_TYPES_GO APPS_GO BATCH_GO SCHEDULING_GO META_GO API_COMMIT MACHINERY_COMMIT \
      [POLICY_GO SCHEDULING_V1ALPHA1_GO SCHEDULING_V1ALPHA2_GO CORE_V135_GO V1ALPHA1_TAG V1ALPHA2_TAG] > src/io/kube_schema_tables.cc

The optional files add what gpusched reads for gangs and preemption (issue 16):
policy/v1 (PodDisruptionBudget), the Workload API of v1.35
(scheduling/v1alpha1, k8s.io/api v0.35.0) and of v1.36 (scheduling/v1alpha2,
v0.36.0), and PodSpec.workloadRef, which v1.35 clusters accept and later
k8s.io/api tombstoned (core/v1 of v0.35.0). The Workload API's structs are
found by apiVersion and kind (FindKindSchema): their Go names repeat.

Regenerating (k8s.io/api and k8s.io/apimachinery checkouts in $API, $MACH):
  A=$API; C=10b39a39bcee995dfe7cd5e8e7b922be5e46f1e2; MC=eed236ceee2c19c2753a3d93ac0631dc20750454
  for f in core/v1 apps/v1 batch/v1 scheduling/v1 policy/v1; do git -C $A show $C:$f/types.go > ${f%%/*}.go; done
  git -C $MACH show $MC:pkg/apis/meta/v1/types.go > meta.go
  git -C $A show v0.35.0:scheduling/v1alpha1/types.go > s1a1.go
  git -C $A show v0.36.0:scheduling/v1alpha2/types.go > s1a2.go
  git -C $A show v0.35.0:core/v1/types.go > core135.go
  scripts/gen_kube_schema.py core.go apps.go batch.go scheduling.go meta.go $C $MC policy.go s1a1.go s1a2.go \
      core135.go v0.35.0 v0.36.0 > src/io/kube_schema_tables.cc
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
# Issue 16's optional packages: checked structs, and the top-level kinds
# FindKindSchema finds by apiVersion.
CHECKED_EXTRA = {
    'policy': ['PodDisruptionBudget', 'PodDisruptionBudgetSpec'],
    'sched1a1': ['Workload', 'WorkloadSpec', 'TypedLocalObjectReference', 'PodGroup', 'PodGroupPolicy',
                 'BasicSchedulingPolicy', 'GangSchedulingPolicy'],
    'sched1a2': ['Workload', 'WorkloadSpec', 'TypedLocalObjectReference', 'PodGroupTemplate',
                 'PodGroupSchedulingPolicy', 'BasicSchedulingPolicy', 'GangSchedulingPolicy', 'PodGroup',
                 'PodGroupSpec', 'PodGroupTemplateReference', 'WorkloadPodGroupTemplateReference'],
}
KINDS_EXTRA = [('policy/v1', 'policy', 'PodDisruptionBudget'),
               ('scheduling.k8s.io/v1alpha1', 'sched1a1', 'Workload'),
               ('scheduling.k8s.io/v1alpha2', 'sched1a2', 'Workload'),
               ('scheduling.k8s.io/v1alpha2', 'sched1a2', 'PodGroup')]
# Go package names as reflect prints them.
GO_PKG = {'sched1a1': 'v1alpha1', 'sched1a2': 'v1alpha2'}
# Packages whose struct names repeat others': left out of FindStructSchema.
VERSIONED = {'sched1a1', 'sched1a2'}
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
    extra = len(sys.argv) > 8
    if extra:
        policy, s1a1, s1a2, core135, tag1a1, tag1a2 = sys.argv[8:14]
        for key, path in [('policy', policy), ('sched1a1', s1a1), ('sched1a2', s1a2)]:
            PKGS[key] = parse(path, key)
        CHECKED.update(CHECKED_EXTRA)
        # PodSpec.workloadRef of v1.35 (tombstoned since): its struct from
        # v0.35.0, checked, and the field added to PodSpec.
        old_core = parse(core135, 'core')[0]
        PKGS['core'][0]['WorkloadReference'] = old_core['WorkloadReference']
        PKGS['core'][0]['PodSpec'].append(('workloadRef', '*WorkloadReference'))
        CHECKED['core'].append('WorkloadReference')

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
        return 'types.UID' if n == 'UID' and p == 'meta' else GO_PKG.get(p, 'v1') + '.' + n

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
    if extra:
        print('// k8s.io/apimachinery %s (json tags of the types.go files), with' % machinery_commit)
        print('// scheduling/v1alpha1 and PodSpec.workloadRef of k8s.io/api %s and scheduling/v1alpha2 of %s.' %
              (tag1a1, tag1a2))
        print('// Do not edit.')
    else:
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
        if not rows:
            # An empty struct (BasicSchedulingPolicy): no zero-length array.
            print('const StructSchema %s = {"%s", %s, nullptr, 0};\n' %
                  (cname(key), key[1], 'true' if key in checked else 'false'))
            continue
        print('const FieldSchema %sFields[] = {' % cname(key))
        print('\n'.join(rows))
        print('};')
        print('const StructSchema %s = {"%s", %s, %sFields, sizeof(%sFields) / sizeof(%sFields[0])};\n' %
              (cname(key), key[1], 'true' if key in checked else 'false', cname(key), cname(key), cname(key)))
    print('}  // namespace\n')
    print('const StructSchema* FindStructSchema(std::string_view name) {')
    print('  static const StructSchema* const kAll[] = {%s};' % ', '.join('&' + cname(k) for k in order
                                                                      if k[0] not in VERSIONED))
    print('  for (const StructSchema* s : kAll)')
    print('    if (name == s->go_name) return s;')
    print('  return nullptr;\n}\n')
    print('const StructSchema* FindKindSchema(std::string_view api_version, std::string_view kind) {')
    if extra:
        print('  struct Entry {')
        print('    const char* api_version;')
        print('    const char* kind;')
        print('    const StructSchema* schema;')
        print('  };')
        print('  static const Entry kKinds[] = {%s};' % ', '.join(
            '{"%s", "%s", &%s}' % (gv, n, cname((p, n))) for gv, p, n in KINDS_EXTRA))
        print('  for (const Entry& e : kKinds)')
        print('    if (api_version == e.api_version && kind == e.kind) return e.schema;')
    print('  const StructSchema* s = FindStructSchema(kind);')
    print('  return s;')
    print('}\n')
    print('std::vector<const StructSchema*> AllStructSchemas() {')
    print('  return {%s};' % ', '.join('&' + cname(k) for k in order))
    print('}\n\n}  // namespace gpusched')

main()
