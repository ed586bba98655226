// NodePorts: upstream's tables in pkg/scheduler/framework/plugins/nodeports/
// node_ports_test.go (v1.35) with their expected statuses: TestNodePorts
// (15 cases) and Test_isSchedulableAfterPodDeleted (4 of its 5 cases: the
// "backoff-wrong-old-object" one hands the hint a non-Pod, which cannot
// happen here). TestPreFilterDisabled (Filter without PreFilter state is an
// Error upstream) has no counterpart: gpusched's framework always runs
// PreFilter first, and Check without state is the Skip case.
#include "gpusched/sched/plugins/nodeports/node_ports.h"

#include <gtest/gtest.h>

#include <deque>
#include <string>
#include <vector>

#include "../../test_util.h"

namespace gpusched {
namespace {

using Code = SchedStatus::Code;

// st.MakePod().Node(host).ContainerPort(...) with newPod's
// "PROTOCOL/hostIP/hostPort" strings: one container with those ports.
Pod NewPod(const std::string& host, const std::vector<std::string>& ports) {
  Pod p = testing::ResourcePod({{}});
  p.node_name = host;
  auto x = std::make_shared<PodSpecExtras>();
  x->container_ports.resize(p.containers.size());
  for (const std::string& s : ports) {
    const size_t a = s.find('/'), b = s.find('/', a + 1);
    ContainerPort cp;
    cp.protocol = s.substr(0, a);
    cp.host_ip = s.substr(a + 1, b - a - 1);
    cp.host_port = std::stoi(s.substr(b + 1));
    x->container_ports[0].push_back(cp);
  }
  x->has_ports = !ports.empty();
  if (x->has_ports) p.extras = x;
  return p;
}

// st.MakePod().InitContainerPort(sidecar, ports): an init container (with
// restartPolicy Always when a sidecar) holding `ports`.
Pod InitContainerPod(bool sidecar, ContainerPort port) {
  Pod p = testing::ResourcePod({{}});
  Container init;
  init.name = "init";
  init.image = "busybox";
  if (sidecar) init.restart_policy = "Always";
  p.init_containers.push_back(init);
  auto x = std::make_shared<PodSpecExtras>();
  x->container_ports.resize(p.containers.size());
  x->init_container_ports = {{port}};
  x->has_ports = true;
  p.extras = x;
  return p;
}

struct Outcome {
  bool skipped = false;
  SchedStatus status = SchedStatus::Success();
};

// PreFilter, then Filter against a node running `existing`.
Outcome PreFilterAndFilter(const Pod& pod, const std::vector<const Pod*>& existing) {
  NodePorts pl;
  ClusterState cluster({});
  PodInfo info = PodInfo::Make(pod, 0);
  SchedStatus reject = SchedStatus::Success();
  std::unique_ptr<PreFilterData> data = pl.PreFilter(info, cluster, reject);
  EXPECT_TRUE(reject.IsSuccess());
  Outcome r;
  if (!data) {
    r.skipped = true;
    return r;
  }
  CycleState cycle;
  cycle.Put(&pl, std::move(data));
  info.cycle = &cycle;
  NodeState state;
  for (const Pod* e : existing) {
    BoundPod b;
    b.pod = e;
    state.pods.push_back(b);
  }
  Node node;
  node.meta.name = "m1";
  r.status = pl.Filter(info, node, state);
  return r;
}

TEST(NodePortsTest, UpstreamTable) {
  ContainerPort p8001{"", "", "TCP", 8001, 8001};
  struct Case {
    const char* name;
    Pod pod;
    std::vector<Pod> existing;
    bool want_skip;
    Code want;
  };
  std::deque<Case> cases = {
      {"skip filter", Pod{}, {}, true, Code::kSuccess},
      {"other port", NewPod("m1", {"UDP/127.0.0.1/8080"}), {NewPod("m1", {"UDP/127.0.0.1/9090"})}, false,
       Code::kSuccess},
      {"same udp port", NewPod("m1", {"UDP/127.0.0.1/8080"}), {NewPod("m1", {"UDP/127.0.0.1/8080"})}, false,
       Code::kUnschedulable},
      {"same tcp port", NewPod("m1", {"TCP/127.0.0.1/8080"}), {NewPod("m1", {"TCP/127.0.0.1/8080"})}, false,
       Code::kUnschedulable},
      {"different host ip", NewPod("m1", {"TCP/127.0.0.1/8080"}), {NewPod("m1", {"TCP/127.0.0.2/8080"})}, false,
       Code::kSuccess},
      {"different protocol", NewPod("m1", {"UDP/127.0.0.1/8080"}), {NewPod("m1", {"TCP/127.0.0.1/8080"})}, false,
       Code::kSuccess},
      {"second udp port conflict", NewPod("m1", {"UDP/127.0.0.1/8000", "UDP/127.0.0.1/8080"}),
       {NewPod("m1", {"UDP/127.0.0.1/8080"})}, false, Code::kUnschedulable},
      {"first tcp port conflict", NewPod("m1", {"TCP/127.0.0.1/8001", "UDP/127.0.0.1/8080"}),
       {NewPod("m1", {"TCP/127.0.0.1/8001", "UDP/127.0.0.1/8081"})}, false, Code::kUnschedulable},
      {"first tcp port conflict due to 0.0.0.0 hostIP", NewPod("m1", {"TCP/0.0.0.0/8001"}),
       {NewPod("m1", {"TCP/127.0.0.1/8001"})}, false, Code::kUnschedulable},
      {"TCP hostPort conflict due to 0.0.0.0 hostIP", NewPod("m1", {"TCP/10.0.10.10/8001", "TCP/0.0.0.0/8001"}),
       {NewPod("m1", {"TCP/127.0.0.1/8001"})}, false, Code::kUnschedulable},
      {"second tcp port conflict to 0.0.0.0 hostIP", NewPod("m1", {"TCP/127.0.0.1/8001"}),
       {NewPod("m1", {"TCP/0.0.0.0/8001"})}, false, Code::kUnschedulable},
      {"second different protocol", NewPod("m1", {"UDP/127.0.0.1/8001"}), {NewPod("m1", {"TCP/0.0.0.0/8001"})},
       false, Code::kSuccess},
      {"UDP hostPort conflict due to 0.0.0.0 hostIP", NewPod("m1", {"UDP/127.0.0.1/8001"}),
       {NewPod("m1", {"TCP/0.0.0.0/8001", "UDP/0.0.0.0/8001"})}, false, Code::kUnschedulable},
      {"non-sidecar initContainer using hostPort", InitContainerPod(false, p8001),
       {NewPod("m1", {"TCP/0.0.0.0/8001"})}, true, Code::kSuccess},
      {"TCP hostPort conflict from sidecar initContainer", InitContainerPod(true, p8001),
       {NewPod("m1", {"TCP/0.0.0.0/8001"})}, false, Code::kUnschedulable},
  };
  EXPECT_EQ(cases.size(), 15u);
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    std::vector<const Pod*> existing;
    for (const Pod& e : c.existing) existing.push_back(&e);
    const Outcome r = PreFilterAndFilter(c.pod, existing);
    EXPECT_EQ(r.skipped, c.want_skip);
    if (r.skipped) continue;
    EXPECT_EQ(r.status.code(), c.want);
    if (!r.status.IsSuccess()) {
      EXPECT_EQ(r.status.reasons(),
                std::vector<std::string>{"node(s) didn't have free ports for the requested pod ports"});
    }
  }
}

TEST(NodePortsTest, IsSchedulableAfterPodDeleted) {
  // st.MakePod().HostPort(8080): a container port with hostPort 8080 and no
  // protocol (TCP).
  auto host_port = [](const std::string& node, int32_t port) {
    return NewPod(node, {"//" + std::to_string(port)});
  };
  const Pod pod = host_port("", 8080);
  struct Case {
    const char* name;
    Pod deleted;
    bool queue;
  } cases[] = {
      {"skip-queue-on-unscheduled", NewPod("", {}), false},
      {"skip-queue-on-non-hostport", NewPod("fake-node", {}), false},
      {"skip-queue-on-unrelated-hostport", host_port("fake-node", 8081), false},
      {"queue-on-released-hostport", host_port("fake-node", 8080), true},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    EXPECT_EQ(NodePorts::QueueOnPodDeleted(pod, c.deleted), c.queue);
  }
  // A Pod/Delete that does not name the pod: Queue.
  EXPECT_TRUE(NodePorts().QueueOnAssignedPodDeleted());
  // The framework's hint (ClusterEvents::pods_deleted lists bound pods whose
  // Pod may keep nodeName ""): only the ports decide.
  const NodePorts pl;
  const FilterPlugin& hint = pl;
  const PodInfo info = PodInfo::Make(pod, 0);
  EXPECT_TRUE(hint.QueueOnPodDeleted(info, host_port("", 8080)));
  EXPECT_FALSE(hint.QueueOnPodDeleted(info, host_port("", 8081)));
  EXPECT_FALSE(hint.QueueOnPodDeleted(info, NewPod("", {})));
}

TEST(NodePortsTest, PreemptionAndNominationSeeTheNodesPods) {
  // Check reads the pods the NodeState it is handed lists: a victim removed
  // from a dry-run copy frees its port, a nominated pod added takes it.
  const Pod want = NewPod("", {"TCP//8080"});
  const Pod holder = NewPod("a", {"TCP//8080"});
  EXPECT_EQ(PreFilterAndFilter(want, {&holder}).status.code(), Code::kUnschedulable);
  EXPECT_TRUE(PreFilterAndFilter(want, {}).status.IsSuccess());
}

TEST(NodePortsTest, ConflictNamesThePodAndPort) {
  Pod want = NewPod("", {"TCP//8080"});
  Pod web = NewPod("a", {"TCP//8080"});
  web.meta.name = "web-0";
  Pod other = NewPod("a", {"UDP//8080"});
  other.meta.name = "dns";
  NodeState state;
  for (const Pod* p : {&other, &web}) {
    BoundPod b;
    b.pod = p;
    state.pods.push_back(b);
  }
  Node a;
  a.meta.name = "a";
  EXPECT_EQ(NodePorts::Conflict(want, a, state), "node a runs web-0, which holds hostPort 8080/TCP");
  EXPECT_FALSE(NodePorts::Fits(want, state));
  EXPECT_TRUE(NodePorts::Fits(other, NodeState{}));
  EXPECT_EQ(NodePorts::Conflict(other, a, NodeState{}), "");
}

}  // namespace
}  // namespace gpusched
