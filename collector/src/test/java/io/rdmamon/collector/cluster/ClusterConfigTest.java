package io.rdmamon.collector.cluster;

import io.rdmamon.collector.CollectorConfig;
import io.rdmamon.collector.config.ConfigException;
import io.rdmamon.collector.config.ListenAddress;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ClusterConfigTest {
    @TempDir
    Path dir;

    @Test
    void noClusterSettingIsALoneCollector() {
        ClusterConfig none = CollectorConfig.load(null, Map.of()).cluster().validated();
        assertFalse(none.enabled());
        assertEquals(ClusterConfig.NONE, none);
    }

    @Test
    void theFileSectionThenTheEnvironment() throws IOException {
        Path file = Files.writeString(dir.resolve("collector.json"), """
                {"cluster": {"listen": "10.1.0.11:6701", "members": ["10.1.0.11:6701", "10.1.0.12:6701"],
                             "name": "fleet-a", "eventBusPort": 6801, "insecure": true, "handover": "3s"}}""");
        ClusterConfig fromFile = CollectorConfig.load(file, Map.of()).cluster().validated();
        assertEquals(new ListenAddress("10.1.0.11", 6701), fromFile.listen());
        assertEquals(List.of("10.1.0.11:6701", "10.1.0.12:6701"), fromFile.members());
        assertEquals("fleet-a", fromFile.name());
        assertEquals(6801, fromFile.effectiveEventBusPort());
        assertTrue(fromFile.insecure());
        assertEquals(Duration.ofSeconds(3), fromFile.handover());
        assertEquals(ClusterConfig.DEFAULT_HANDOVER, ClusterConfig.NONE.handover());

        ClusterConfig overridden = CollectorConfig.load(file, Map.of("RDMAMON_CLUSTER_LISTEN", "10.1.0.13:7701",
                "RDMAMON_CLUSTER_MEMBERS", "10.1.0.13:7701, 10.1.0.14:7701")).cluster().validated();
        assertEquals(new ListenAddress("10.1.0.13", 7701), overridden.listen());
        assertEquals(List.of("10.1.0.13:7701", "10.1.0.14:7701"), overridden.members());
        assertEquals("fleet-a", overridden.name(), "a layer keeps what it does not set");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "\"-1s\" | cluster.handover: expected a duration",
            "\"16s\" | cluster.handover must be 0s to 15s",
            "8        | a duration string"})
    void aHandoverOutsideTheCloseBoundIsRefused(String value, String message) throws IOException {
        Path file = Files.writeString(dir.resolve("collector.json"), "{\"cluster\": {\"handover\": " + value + "}}");
        ConfigException e = assertThrows(ConfigException.class, () -> CollectorConfig.load(file, Map.of()));
        assertTrue(e.getMessage().contains(message), e.getMessage());
    }

    @Test
    void theEventBusTakesTheMemberPortPlusOneUnlessSet() {
        ClusterConfig config = ClusterConfig.NONE.withListen("[::1]:5701", "--cluster-listen")
                .withMembers("[::1]:5701", "--cluster-members").validated();
        assertEquals("::1", config.listen().host());
        assertEquals(5702, config.effectiveEventBusPort());
    }

    @Test
    void kubernetesDiscoveryReplacesTheMemberList() {
        ClusterConfig config = CollectorConfig.load(null, Map.of("RDMAMON_CLUSTER_LISTEN", "10.2.3.4:5701",
                "RDMAMON_CLUSTER_KUBERNETES_SERVICE_DNS", "rdmamon-collector-cluster.mon.svc.cluster.local",
                "RDMAMON_CLUSTER_INSECURE", "true"))
                .cluster().validated();
        assertEquals("rdmamon-collector-cluster.mon.svc.cluster.local", config.kubernetesServiceDns());
        assertTrue(config.members().isEmpty());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "''                  | 127.0.0.1:5701 | '' | cluster members are set but not cluster.listen",
            "127.0.0.1:5701      | ''             | '' | neither cluster.members (--cluster-members) nor cluster.kubernetesServiceDns",
            "127.0.0.1:5701      | 127.0.0.1:5701 | svc.local | cluster.members and cluster.kubernetesServiceDns are both set"})
    void incompleteOrContradictorySettingsAreRefusedWhenAllLayersAreIn(String listen, String members, String dns,
                                                                         String message) {
        ClusterConfig config = ClusterConfig.NONE;
        if (!listen.isEmpty()) {
            config = config.withListen(listen, "--cluster-listen");
        }
        if (!members.isEmpty()) {
            config = config.withMembers(members, "--cluster-members");
        }
        ClusterConfig partial = new ClusterConfig(config.listen(), config.members(), dns.isEmpty() ? null : dns,
                config.name(), 0);
        ConfigException e = assertThrows(ConfigException.class, partial::validated);
        assertTrue(e.getMessage().contains(message), e.getMessage());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "--cluster-listen  | 127.0.0.1:0      | cluster.listen needs a fixed port",
            "--cluster-listen  | 127.0.0.1:65535  | cluster.listen needs a fixed port",
            "--cluster-listen  | 127.0.0.1        | --cluster-listen",
            "--cluster-members | 10.0.0.1:5701,   | --cluster-members: empty member",
            "--cluster-members | 10.0.0.1         | --cluster-members",
            "--cluster-members | 10.0.0.1:0       | needs a port"})
    void badAddressesAreNamed(String flag, String value, String message) {
        ConfigException e = assertThrows(ConfigException.class, () -> {
            if (flag.equals("--cluster-listen")) {
                ClusterConfig.NONE.withListen(value, flag);
            } else {
                ClusterConfig.NONE.withMembers(value, flag);
            }
        });
        assertTrue(e.getMessage().contains(message), e.getMessage());
    }

    @Test
    void unknownKeysOfTheSectionAreNamed() throws IOException {
        Path file = Files.writeString(dir.resolve("collector.json"), """
                {"cluster": {"listen": "10.1.0.11:6701", "multicast": true}}""");
        ConfigException e = assertThrows(ConfigException.class, () -> CollectorConfig.load(file, Map.of()));
        assertTrue(e.getMessage().contains("cluster.multicast"), e.getMessage());
    }

    @Test
    void theMemberBindsTheListenAddressOnlyAndFindsTheListWithoutMulticast() throws Exception {
        ClusterConfig config = ClusterConfig.NONE.withListen("127.0.0.1:6701", "t")
                .withMembers("127.0.0.1:6701,127.0.0.2:6703", "t").validated();
        org.jgroups.JChannel channel = ClusterBoot.channel(config, java.net.InetAddress.getByName("127.0.0.1"), null);
        try {
            org.jgroups.protocols.TCP tcp = (org.jgroups.protocols.TCP) channel.getProtocolStack().getTransport();
            assertEquals("127.0.0.1", tcp.getBindAddress().getHostAddress());
            assertEquals(6701, tcp.getBindPort());
            assertEquals(0, tcp.getPortRange(), "exactly the configured port, never the next free one");
            org.jgroups.protocols.TCPPING ping = channel.getProtocolStack().findProtocol(org.jgroups.protocols.TCPPING.class);
            assertEquals(List.of("127.0.0.1:6701", "127.0.0.2:6703"), ping.getInitialHosts().stream()
                    .map(a -> ((org.jgroups.stack.IpAddress) a).getIpAddress().getHostAddress() + ":"
                            + ((org.jgroups.stack.IpAddress) a).getPort()).toList());
            assertEquals(null, channel.getProtocolStack().findProtocol(org.jgroups.protocols.MPING.class));
            assertEquals(null, channel.getProtocolStack().findProtocol(org.jgroups.protocols.UDP.class));
            assertTrue(channel.getProtocolStack().findProtocol(org.jgroups.protocols.MERGE3.class) != null,
                    "partitions merge (a stopped replica that resumes)");
            assertEquals(org.jgroups.util.DefaultSocketFactory.class, tcp.getSocketFactory().getClass());
        } finally {
            channel.close();
        }
    }

    @Test
    void kubernetesDiscoveryAsksTheServiceDns() throws Exception {
        ClusterConfig config = new ClusterConfig(new ListenAddress("10.2.3.4", 5701), List.of(), "svc.ns.svc.cluster.local",
                "rdmamon", 0, ClusterTls.NONE).withInsecure(true).validated();
        org.jgroups.JChannel channel = ClusterBoot.channel(config, java.net.InetAddress.getByName("10.2.3.4"), null);
        try {
            org.jgroups.protocols.dns.DNS_PING dns = channel.getProtocolStack()
                    .findProtocol(org.jgroups.protocols.dns.DNS_PING.class);
            assertEquals("svc.ns.svc.cluster.local", dns.getValue("dns_query"));
            assertEquals(null, channel.getProtocolStack().findProtocol(org.jgroups.protocols.TCPPING.class));
        } finally {
            channel.close();
        }
    }

    @Test
    void aNonLoopbackClusterWithoutTlsIsRefusedUnlessInsecure() {
        ClusterConfig open = ClusterConfig.NONE.withListen("10.1.0.11:6701", "t").withMembers("10.1.0.11:6701", "t");
        ConfigException e = assertThrows(ConfigException.class, open::validated);
        assertTrue(e.getMessage().contains("--insecure-cluster") && e.getMessage().contains("cluster.tls"), e.getMessage());
        assertEquals(open.withInsecure(true), open.withInsecure(true).validated());
        ClusterConfig withTls = new ClusterConfig(open.listen(), open.members(), null, open.name(), 0,
                new ClusterTls(Path.of("c.pem"), Path.of("k.pem"), Path.of("ca.pem")));
        assertEquals(withTls, withTls.validated(), "TLS files are checked when the replica starts");
        ClusterConfig loopback = ClusterConfig.NONE.withListen("127.0.0.1:6701", "t").withMembers("127.0.0.1:6701", "t");
        assertEquals(loopback, loopback.validated(), "loopback needs neither: only this host can reach it");
        assertTrue(open.overlayEnv(Map.of("RDMAMON_CLUSTER_INSECURE", "true")).insecure());
        assertThrows(ConfigException.class, () -> open.overlayEnv(Map.of("RDMAMON_CLUSTER_INSECURE", "yes")));
    }
}
