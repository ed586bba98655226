#include "pod_volumes_decode.h"

#include "volume_decode.h"

namespace gpusched {

VolumeSource DecodeVolumeSource(DecodeContext& ctx, const DocNode& node, const std::string& path) {
  VolumeSource s;
  auto read_only = [&](const DocNode& src, const std::string& p) {
    s.read_only = ctx.Bool(src, "readOnly", p + ".readOnly").value_or(false);
  };
  if (const DocNode g = ctx.Map(node, "gcePersistentDisk", path + ".gcePersistentDisk"); g.IsDefined()) {
    s.kind = "gcePersistentDisk";
    s.id = ctx.Str(g, "pdName", path + ".gcePersistentDisk.pdName");
    read_only(g, path + ".gcePersistentDisk");
  } else if (const DocNode a = ctx.Map(node, "awsElasticBlockStore", path + ".awsElasticBlockStore");
             a.IsDefined()) {
    s.kind = "awsElasticBlockStore";
    s.id = ctx.Str(a, "volumeID", path + ".awsElasticBlockStore.volumeID");
    read_only(a, path + ".awsElasticBlockStore");
  } else if (const DocNode i = ctx.Map(node, "iscsi", path + ".iscsi"); i.IsDefined()) {
    s.kind = "iscsi";
    s.id = ctx.Str(i, "iqn", path + ".iscsi.iqn");
    read_only(i, path + ".iscsi");
  } else if (const DocNode r = ctx.Map(node, "rbd", path + ".rbd"); r.IsDefined()) {
    s.kind = "rbd";
    s.id = ctx.Str(r, "image", path + ".rbd.image");
    s.rbd_pool = ctx.Str(r, "pool", path + ".rbd.pool");
    if (s.rbd_pool.empty()) s.rbd_pool = "rbd";  // SetDefaults_RBDVolumeSource
    const DocNode mons = ctx.Seq(r, "monitors", path + ".rbd.monitors");
    for (size_t k = 0; k < mons.size(); ++k)
      if (mons[k].IsScalar()) s.rbd_monitors.emplace_back(mons[k].Scalar());
    read_only(r, path + ".rbd");
  } else if (const DocNode c = ctx.Map(node, "csi", path + ".csi"); c.IsDefined()) {
    s.kind = "csi";
    s.csi_driver = ctx.Str(c, "driver", path + ".csi.driver");
    s.id = ctx.Str(c, "volumeHandle", path + ".csi.volumeHandle");
    read_only(c, path + ".csi");
  } else {
    // The other PV sources, by name, for what reads a PV's kind (local
    // volumes, in-tree plugins NodeVolumeLimits does not count).
    for (const char* k : {"local", "hostPath", "nfs", "azureDisk", "azureFile", "cinder", "cephfs", "fc",
                          "flexVolume", "glusterfs", "portworxVolume", "vsphereVolume", "photonPersistentDisk",
                          "scaleIO", "storageos", "quobyte", "flocker"}) {
      const DocNode n = node[k];
      if (n.IsDefined() && !n.IsNull()) {
        s.kind = k;
        break;
      }
    }
  }
  return s;
}

std::vector<PodVolume> DecodePodVolumes(DecodeContext& ctx, const DocNode& spec, const std::string& path) {
  std::vector<PodVolume> out;
  int32_t index = 0;
  for (const auto& [v, p] : ctx.Objects(spec, "volumes", path)) {
    PodVolume vol;
    vol.index = index++;
    vol.name = ctx.Str(v, "name", p + ".name");
    if (const DocNode c = ctx.Map(v, "persistentVolumeClaim", p + ".persistentVolumeClaim"); c.IsDefined()) {
      vol.kind = PodVolume::Kind::kClaim;
      vol.claim_name = ctx.Str(c, "claimName", p + ".persistentVolumeClaim.claimName");
      vol.read_only = ctx.Bool(c, "readOnly", p + ".persistentVolumeClaim.readOnly").value_or(false);
    } else if (const DocNode e = ctx.Map(v, "ephemeral", p + ".ephemeral"); e.IsDefined()) {
      vol.kind = PodVolume::Kind::kEphemeral;
      if (const DocNode t = ctx.Map(e, "volumeClaimTemplate", p + ".ephemeral.volumeClaimTemplate"); t.IsDefined())
        vol.claim_template = std::make_shared<PersistentVolumeClaim>(DecodePvcTemplate(ctx, t));
    } else {
      vol.source = DecodeVolumeSource(ctx, v, p);
      // Only the inline kinds the volume plugins read are kept.
      const std::string& k = vol.source.kind;
      if (k != "gcePersistentDisk" && k != "awsElasticBlockStore" && k != "iscsi" && k != "rbd" && k != "csi")
        continue;
    }
    out.push_back(std::move(vol));
  }
  return out;
}

}  // namespace gpusched
