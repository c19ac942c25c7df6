package io.rdmamon.agent.workload;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses the text of {@code /proc/<pid>/cgroup} into the Kubernetes pod and container that own the process
 * (docs/reference/pingmesh-workloads-topology.md §2.4). Pure: the caller reads the file.
 *
 * <p>Layouts: cgroup v2 ({@code 0::<path>}) and v1 ({@code N:controllers:<path>}, any line naming a pod will do); the
 * systemd driver ({@code /kubepods.slice/kubepods-<qos>.slice/kubepods-<qos>-pod<uid_with_underscores>.slice/
 * <runtime>-<id>.scope}, Guaranteed pods without the QoS level) and the cgroupfs driver ({@code
 * /kubepods/<qos>/pod<uid>/
 * <id>}, {@code /kubepods/pod<uid>/<id>} for Guaranteed pods, CRI-O's {@code crio-<id>}). Paths are searched segment by
 * segment, so a path seen from inside another cgroup namespace ({@code /../../kubepods.slice/...}) parses alike.
 */
public final class CgroupPaths {
    /** {@code kubepods-pod<uid>.slice} or {@code kubepods-<qos>-pod<uid>.slice}; the UID with {@code _} for {@code -}.
     * */
    private static final Pattern SYSTEMD_POD = Pattern.compile("kubepods(?:-(burstable|besteffort))?-pod([0-9a-fA-F_-]+)\\.slice");
    /** {@code pod<uid>} below {@code /kubepods}. */
    private static final Pattern CGROUPFS_POD = Pattern.compile("pod([0-9a-fA-F_-]+)");
    /** {@code cri-containerd-<id>.scope}, {@code crio-<id>.scope}, {@code docker-<id>.scope}, {@code crio-<id>}, {@code
     * <id>}. */
    private static final Pattern CONTAINER = Pattern.compile("(?:(cri-containerd|crio|docker)-)?([0-9a-f]{64})(?:\\.scope)?");
    private static final Pattern UID = Pattern.compile("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");

    public static final String NOT_KUBERNETES = "not a Kubernetes cgroup";

    private CgroupPaths() {
    }

    /** The owner named by {@code cgroupFile}; a file naming no pod gives {@link CgroupOwner#none} with the reason. */
    public static CgroupOwner parse(String cgroupFile) {
        boolean anyPath = false;
        for (String line : cgroupFile.split("\n")) {
            String[] fields = line.split(":", 3);
            if (fields.length < 3) {
                continue; // not a hierarchy line; another line may still name the pod
            }
            anyPath = true;
            CgroupOwner owner = parsePath(fields[2].trim());
            if (owner != null) {
                return owner;
            }
        }
        return CgroupOwner.none(anyPath ? NOT_KUBERNETES : "no hierarchy line (<id>:<controllers>:<path>) in the cgroup file");
    }

    /** The owner named by one cgroup path; null when the path is not below {@code kubepods}. */
    static CgroupOwner parsePath(String path) {
        String[] segments = path.split("/");
        int kubepods = -1;
        for (int i = 0; i < segments.length && kubepods < 0; i++) {
            if (segments[i].equals("kubepods") || segments[i].equals("kubepods.slice")) {
                kubepods = i;
            }
        }
        if (kubepods < 0) {
            return null;
        }
        String qos = "guaranteed";
        for (int i = kubepods + 1; i < segments.length; i++) {
            String segment = segments[i];
            Matcher systemd = SYSTEMD_POD.matcher(segment);
            Matcher cgroupfs = CGROUPFS_POD.matcher(segment);
            String rawUid;
            if (systemd.matches()) {
                rawUid = systemd.group(2);
                qos = systemd.group(1) == null ? "guaranteed" : systemd.group(1);
            } else if (cgroupfs.matches()) {
                rawUid = cgroupfs.group(1);
            } else {
                if (segment.equals("burstable") || segment.equals("besteffort")) {
                    qos = segment;
                }
                continue;
            }
            // the systemd driver escapes the UID's dashes as underscores (dcgm-exporter does the same replacement)
            String uid = rawUid.replace('_', '-').toLowerCase(Locale.ROOT);
            if (!UID.matcher(uid).matches()) {
                return CgroupOwner.none("pod UID \"" + rawUid + "\" in " + path + " is not a UID");
            }
            return container(uid, qos, i + 1 < segments.length ? segments[i + 1] : null);
        }
        return CgroupOwner.none(NOT_KUBERNETES + " (no pod below kubepods: " + path + ")");
    }

    private static CgroupOwner container(String uid, String qos, String segment) {
        Matcher container = segment == null ? null : CONTAINER.matcher(segment);
        if (container == null || !container.matches()) {
            // the pod's own cgroup, or a runtime helper (crio-conmon-<id>.scope): the pod, no container
            return CgroupOwner.pod(uid, qos, null, null);
        }
        return CgroupOwner.pod(uid, qos, container.group(1), container.group(2));
    }
}
