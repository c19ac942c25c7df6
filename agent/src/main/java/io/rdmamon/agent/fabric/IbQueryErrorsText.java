package io.rdmamon.agent.fabric;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses {@code ibqueryerrors} (infiniband-diags {@code ibqueryerrors.c}): per node a header ({@code Errors for
 * 0x200000 "leaf1"}, {@code Data Counters for ...}), then per port {@code GUID 0x200000 port 5: [SymbolErrorCounter ==
 * 50] [PortXmitData == 23544 (91.969KB)]}, and a summary ({@code ## Summary: 8 nodes checked, ...},
 * {@code ## 36 ports checked, ...}). A port's GUID is the node's for a switch, and for an HCA its node's or its
 * port's ({@link DiscoveredFabric#resolve}). {@code port ALL} lines (the AllPortSelect aggregate) are skipped. An
 * output without its summary was cut short and is refused. Pure.
 */
final class IbQueryErrorsText {
    /**
     * @param counters     per port, the counters printed (name → value)
     * @param portsChecked the summary's count of ports read
     */
    record Result(Map<PortKey, Map<String, Long>> counters, int portsChecked) {
        /** This pass's ports and those of {@code other}, a pass over other nodes (another node type). */
        Result and(Result other) {
            Map<PortKey, Map<String, Long>> both = new LinkedHashMap<>(counters);
            both.putAll(other.counters);
            return new Result(both, portsChecked + other.portsChecked);
        }
    }

    private static final Pattern HEADER = Pattern.compile("^(Errors|Data Counters) for .*$");
    private static final Pattern PORT = Pattern.compile("^\\s+GUID (0x[0-9a-fA-F]+) port (\\d+|ALL):(.*)$");
    private static final Pattern COUNTER = Pattern.compile("\\[(\\w+) == (\\d+)(?: \\([^)]*\\))?]");
    private static final Pattern PORTS_CHECKED = Pattern.compile("^##\\s+(\\d+) ports checked");

    private IbQueryErrorsText() {
    }

    static Result parse(String text) throws FabricTextException {
        Map<PortKey, Map<String, Long>> counters = new LinkedHashMap<>();
        Integer portsChecked = null;
        int lineNumber = 0;
        for (String line : text.split("\n", -1)) {
            lineNumber++;
            Matcher m;
            if (line.isBlank() || HEADER.matcher(line).matches() || line.stripLeading().startsWith("Link info:")) {
                continue;
            }
            if ((m = PORT.matcher(line)).matches()) {
                if (m.group(2).equals("ALL")) {
                    continue;
                }
                PortKey key = new PortKey(PortKey.guid(m.group(1)), Integer.parseInt(m.group(2)));
                Map<String, Long> values = counters.computeIfAbsent(key, k -> new LinkedHashMap<>());
                Matcher c = COUNTER.matcher(m.group(3));
                int end = 0;
                while (c.find()) {
                    values.put(c.group(1), Long.parseUnsignedLong(c.group(2)));
                    end = c.end();
                }
                if (!m.group(3).substring(end).isBlank()) {
                    throw new FabricTextException("ibqueryerrors", lineNumber, line, "not a list of [Counter == value]");
                }
            } else if ((m = PORTS_CHECKED.matcher(line)).find()) {
                portsChecked = Integer.valueOf(m.group(1));
            } else if (!line.startsWith("##")) {
                throw new FabricTextException("ibqueryerrors", lineNumber, line, "not a node, port or summary line");
            }
        }
        if (portsChecked == null) {
            throw new FabricTextException("ibqueryerrors", lineNumber, "", "the output ends before its summary "
                    + "(cut short)");
        }
        return new Result(counters, portsChecked);
    }
}
