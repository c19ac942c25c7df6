package io.rdmamon.collector.diagnosis.rules;


import io.rdmamon.collector.diagnosis.PortRule;
import io.rdmamon.collector.fabric.FabricRule;

import java.util.List;

/**
 * Every rule of docs/architecture.md "Rule ids", one class each named after its id ({@code pfc_pause_storm} → {@link
 * PfcPauseStorm}).
 * The engine evaluates {@link #PORT_RULES} on every sample of every port; the node-level rules have their own
 * moments (a sample, the sweep) and so their own entries. A new rule: its {@code Rule} constant, its class here,
 * its entry below (docs/diagnosis.md "Adding a rule").
 */
public final class RuleTable {
    public static final List<PortRule> PORT_RULES = List.of(
            new RoceTrafficOutsideLosslessPriority(),
            new PfcNotEnabled(),
            new PfcPauseStorm(),
            new EcnNotEngaged(),
            new CnpIgnored(),
            new TransportLoss(),
            new LinkDown(),
            new LinkDegraded(),
            new LinkFlapping(),
            new PcieDegraded(),
            new PcieErrors(),
            new ModulePowerOutOfRange(),
            new ModuleTemperatureHigh(),
            new FecBerHigh(),
            new GidNoRocev2(),
            new ErdmaRateLimited(),
            new QosConfigDrift(),
            new QosTrustNotDscp(),
            new RoceDscpNotLossless(),
            new EcnDisabledOnLossless(),
            new NcclConfMismatch(),
            new GpudirectNotReady(),
            new GpuNicCrossNuma(),
            new PcieAcsRedirect(),
            new PcieRelaxedOrderingOff(),
            new PathLoss(),
            new PathLatencyHigh(),
            new PortUnreachable(),
            // the kernel log's NIC events (agent: io.rdmamon.agent.kmsg.KernelEventPatterns)
            new NicFirmwareFatal(),
            new NicTxTimeout(),
            new NicCommandTimeout(),
            new NicPciePowerInsufficient(),
            // devlink health reporters (agent: io.rdmamon.agent.devlink)
            new NicHealthReporterError());
    /** The InfiniBand fabric's rules, judged by the fabric store on every sweep of a fabric. */
    public static final List<FabricRule> FABRIC_RULES = List.of(
            new FabricCableErrors(),
            new FabricLinkDegraded(),
            new FabricLinkDown(),
            new FabricCongestion());
    public static final AgentStale AGENT_STALE = new AgentStale();
    public static final NodeNameConflict NODE_NAME_CONFLICT = new NodeNameConflict();

    private RuleTable() {
    }
}
