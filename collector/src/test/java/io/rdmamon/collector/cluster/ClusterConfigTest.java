package io.rdmamon.collector.cluster;

import io.rdmamon.collector.CollectorConfig;
import io.rdmamon.collector.ConfigException;
import io.rdmamon.collector.ListenAddress;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
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
                             "name": "fleet-a", "eventBusPort": 6801}}""");
        ClusterConfig fromFile = CollectorConfig.load(file, Map.of()).cluster().validated();
        assertEquals(new ListenAddress("10.1.0.11", 6701), fromFile.listen());
        assertEquals(List.of("10.1.0.11:6701", "10.1.0.12:6701"), fromFile.members());
        assertEquals("fleet-a", fromFile.name());
        assertEquals(6801, fromFile.effectiveEventBusPort());

        ClusterConfig overridden = CollectorConfig.load(file, Map.of("RDMAMON_CLUSTER_LISTEN", "10.1.0.13:7701",
                "RDMAMON_CLUSTER_MEMBERS", "10.1.0.13:7701, 10.1.0.14:7701")).cluster().validated();
        assertEquals(new ListenAddress("10.1.0.13", 7701), overridden.listen());
        assertEquals(List.of("10.1.0.13:7701", "10.1.0.14:7701"), overridden.members());
        assertEquals("fleet-a", overridden.name(), "a layer keeps what it does not set");
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
                "RDMAMON_CLUSTER_KUBERNETES_SERVICE_DNS", "rdmamon-collector-cluster.mon.svc.cluster.local"))
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
    void theHazelcastMemberBindsTheListenAddressOnlyAndJoinsTheListWithoutMulticast() {
        ClusterConfig config = ClusterConfig.NONE.withListen("127.0.0.1:6701", "t")
                .withMembers("127.0.0.1:6701,127.0.0.2:6703", "t").validated();
        com.hazelcast.config.Config hz = ClusterBoot.hazelcastConfig(config, "127.0.0.1");
        assertEquals("rdmamon", hz.getClusterName());
        assertEquals(6701, hz.getNetworkConfig().getPort());
        assertFalse(hz.getNetworkConfig().isPortAutoIncrement());
        assertTrue(hz.getNetworkConfig().getInterfaces().isEnabled());
        assertEquals(List.of("127.0.0.1"), List.copyOf(hz.getNetworkConfig().getInterfaces().getInterfaces()));
        assertEquals("false", hz.getProperty("hazelcast.socket.bind.any"));
        assertFalse(hz.getNetworkConfig().getJoin().getMulticastConfig().isEnabled());
        assertFalse(hz.getNetworkConfig().getJoin().getAutoDetectionConfig().isEnabled());
        assertTrue(hz.getNetworkConfig().getJoin().getTcpIpConfig().isEnabled());
        assertEquals(List.of("127.0.0.1:6701", "127.0.0.2:6703"), hz.getNetworkConfig().getJoin().getTcpIpConfig().getMembers());
        assertFalse(hz.getNetworkConfig().getJoin().getKubernetesConfig().isEnabled());
        assertTrue(hz.getMultiMapConfigs().containsKey("__vertx.subs"), "Vert.x's own structures are configured");
    }

    @Test
    void kubernetesJoinUsesTheServiceDnsAndTheMemberPort() {
        ClusterConfig config = new ClusterConfig(new ListenAddress("10.2.3.4", 5701), List.of(), "svc.ns.svc.cluster.local",
                "rdmamon", 0).validated();
        com.hazelcast.config.Config hz = ClusterBoot.hazelcastConfig(config, "10.2.3.4");
        assertTrue(hz.getNetworkConfig().getJoin().getKubernetesConfig().isEnabled());
        assertEquals("svc.ns.svc.cluster.local", hz.getNetworkConfig().getJoin().getKubernetesConfig().getProperty("service-dns"));
        assertEquals("5701", hz.getNetworkConfig().getJoin().getKubernetesConfig().getProperty("service-port"));
        assertFalse(hz.getNetworkConfig().getJoin().getTcpIpConfig().isEnabled());
    }
}
