package io.rdmamon.agent.workload;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Every layout of docs/reference/pingmesh-workloads-topology.md §2.4, one row each: the cgroup file's text → pod UID,
 * QoS, runtime, container. */
class CgroupPathsTest {
    private static final String CID = "4f1c2a9e0b7d3c5a8e6f1d2b3c4a5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b1c2d";

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', nullValues = "null", value = {
            // cgroup v2, systemd driver, containerd, Burstable
            "v2 systemd containerd burstable|0::/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod1b2c3d4e_5f60_4a7b_8c9d_0e1f2a3b4c5d.slice/cri-containerd-CID.scope"
                    + "|1b2c3d4e-5f60-4a7b-8c9d-0e1f2a3b4c5d|burstable|cri-containerd|CID",
            // BestEffort
            "v2 systemd containerd besteffort|0::/kubepods.slice/kubepods-besteffort.slice/kubepods-besteffort-pod1b2c3d4e_5f60_4a7b_8c9d_0e1f2a3b4c5d.slice/cri-containerd-CID.scope"
                    + "|1b2c3d4e-5f60-4a7b-8c9d-0e1f2a3b4c5d|besteffort|cri-containerd|CID",
            // Guaranteed pods have no QoS level, containerd and CRI-O alike
            "v2 systemd containerd guaranteed|0::/kubepods.slice/kubepods-pod1b2c3d4e_5f60_4a7b_8c9d_0e1f2a3b4c5d.slice/cri-containerd-CID.scope"
                    + "|1b2c3d4e-5f60-4a7b-8c9d-0e1f2a3b4c5d|guaranteed|cri-containerd|CID",
            "v2 systemd crio guaranteed|0::/kubepods.slice/kubepods-pod1b2c3d4e_5f60_4a7b_8c9d_0e1f2a3b4c5d.slice/crio-CID.scope"
                    + "|1b2c3d4e-5f60-4a7b-8c9d-0e1f2a3b4c5d|guaranteed|crio|CID",
            "v2 systemd crio burstable|0::/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod1b2c3d4e_5f60_4a7b_8c9d_0e1f2a3b4c5d.slice/crio-CID.scope"
                    + "|1b2c3d4e-5f60-4a7b-8c9d-0e1f2a3b4c5d|burstable|crio|CID",
            // dockershim
            "v1 systemd docker|12:memory:/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod1b2c3d4e_5f60_4a7b_8c9d_0e1f2a3b4c5d.slice/docker-CID.scope"
                    + "|1b2c3d4e-5f60-4a7b-8c9d-0e1f2a3b4c5d|burstable|docker|CID",
            // cgroupfs driver: the UID keeps its dashes, the container is its bare id
            "v1 cgroupfs burstable|4:cpu,cpuacct:/kubepods/burstable/pod1b2c3d4e-5f60-4a7b-8c9d-0e1f2a3b4c5d/CID"
                    + "|1b2c3d4e-5f60-4a7b-8c9d-0e1f2a3b4c5d|burstable|null|CID",
            "v1 cgroupfs besteffort|4:cpu,cpuacct:/kubepods/besteffort/pod1b2c3d4e-5f60-4a7b-8c9d-0e1f2a3b4c5d/CID"
                    + "|1b2c3d4e-5f60-4a7b-8c9d-0e1f2a3b4c5d|besteffort|null|CID",
            "v1 cgroupfs guaranteed|4:cpu,cpuacct:/kubepods/pod1b2c3d4e-5f60-4a7b-8c9d-0e1f2a3b4c5d/CID"
                    + "|1b2c3d4e-5f60-4a7b-8c9d-0e1f2a3b4c5d|guaranteed|null|CID",
            "v2 cgroupfs k3s|0::/kubepods/besteffort/pod1b2c3d4e-5f60-4a7b-8c9d-0e1f2a3b4c5d/CID"
                    + "|1b2c3d4e-5f60-4a7b-8c9d-0e1f2a3b4c5d|besteffort|null|CID",
            "v2 cgroupfs crio|0::/kubepods/burstable/pod1b2c3d4e-5f60-4a7b-8c9d-0e1f2a3b4c5d/crio-CID"
                    + "|1b2c3d4e-5f60-4a7b-8c9d-0e1f2a3b4c5d|burstable|crio|CID",
            // seen from another cgroup namespace (the agent's own): the path climbs first
            "v2 from another cgroupns|0::/../../kubepods.slice/kubepods-pod1b2c3d4e_5f60_4a7b_8c9d_0e1f2a3b4c5d.slice/cri-containerd-CID.scope"
                    + "|1b2c3d4e-5f60-4a7b-8c9d-0e1f2a3b4c5d|guaranteed|cri-containerd|CID",
            // the pod's own cgroup and a runtime helper name the pod but no container
            "pod cgroup itself|0::/kubepods.slice/kubepods-pod1b2c3d4e_5f60_4a7b_8c9d_0e1f2a3b4c5d.slice"
                    + "|1b2c3d4e-5f60-4a7b-8c9d-0e1f2a3b4c5d|guaranteed|null|null",
            "crio conmon|0::/kubepods.slice/kubepods-pod1b2c3d4e_5f60_4a7b_8c9d_0e1f2a3b4c5d.slice/crio-conmon-CID.scope"
                    + "|1b2c3d4e-5f60-4a7b-8c9d-0e1f2a3b4c5d|guaranteed|null|null"})
    void podLayouts(String layout, String file, String uid, String qos, String runtime, String container) {
        CgroupOwner owner = CgroupPaths.parse(file.replace("CID", CID) + "\n");
        assertEquals(CgroupOwner.pod(uid, qos, runtime, container == null ? null : CID), owner, layout);
    }

    @Test
    void v1UsesAnyLineNamingThePod() {
        String file = "12:pids:/user.slice\n11:memory:/kubepods/pod1b2c3d4e-5f60-4a7b-8c9d-0e1f2a3b4c5d/" + CID + "\n0::/\n";
        assertEquals("1b2c3d4e-5f60-4a7b-8c9d-0e1f2a3b4c5d", CgroupPaths.parse(file).podUid());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "v2 user session|0::/user.slice/user-1000.slice/session-3.scope|not a Kubernetes cgroup",
            "v2 system service|0::/system.slice/slurmstepd.scope/job_42/step_0/user/task_0|not a Kubernetes cgroup",
            "v2 root|0::/|not a Kubernetes cgroup",
            "v1 plain docker|12:memory:/docker/CID|not a Kubernetes cgroup",
            "kubepods without a pod|0::/kubepods.slice/kubepods-burstable.slice|not a Kubernetes cgroup (no pod below kubepods: /kubepods.slice/kubepods-burstable.slice)",
            "short UID|0::/kubepods/pod1234/CID|pod UID \"1234\" in /kubepods/pod1234/CID is not a UID",
            "no hierarchy line|garbage|no hierarchy line (<id>:<controllers>:<path>) in the cgroup file",
            "empty file||no hierarchy line (<id>:<controllers>:<path>) in the cgroup file"})
    void notAPodSaysWhy(String layout, String file, String reason) {
        CgroupOwner owner = CgroupPaths.parse(file == null ? "" : file.replace("CID", CID));
        assertEquals(CgroupOwner.none(reason.replace("CID", CID)), owner, layout);
    }
}
