package io.rdmamon.collector.pingmesh;

import io.rdmamon.collector.config.ConfigException;

import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * One configured group ({@code pingmesh.groups}): its name and the node-name globs of its members, {@code *} matching
 * any run of characters ({@code "rack-a": ["gpu-a*", "storage-01"]}).
 */
public record GroupRule(String name, List<String> globs, List<Pattern> patterns) {
    /** Group names: what a Prometheus label value and the dashboard show comfortably. */
    static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._:-]{0,63}");
    /** A node name's characters ({@code Names.isNodeName}) and {@code *}. */
    private static final Pattern GLOB = Pattern.compile("[A-Za-z0-9._*-]{1,253}");

    /**
     * Checks and compiles one group; {@code path} names it in errors ({@code pingmesh.groups.rack-a}).
     *
     * @throws ConfigException naming the group or the glob at fault
     */
    public static GroupRule of(String name, List<String> globs, String path) {
        if (!NAME.matcher(name).matches()) {
            throw new ConfigException(path + ": group name '" + name + "' must be 1..64 letters, digits, '.', '_', ':'"
                    + " or '-', starting with a letter or digit");
        }
        if (PortGroups.FLEET.equals(name)) {
            throw new ConfigException(path + ": '" + PortGroups.FLEET + "' is the group of ports no other rule places");
        }
        if (globs.isEmpty()) {
            throw new ConfigException(path + ": a group needs at least one node-name glob");
        }
        for (int i = 0; i < globs.size(); i++) {
            if (!GLOB.matcher(globs.get(i)).matches()) {
                throw new ConfigException(path + "[" + i + "]: '" + globs.get(i) + "' is not a node-name glob (node-name"
                        + " characters: letters, digits, '.', '_', '-', and * for any run of them)");
            }
        }
        List<Pattern> patterns = globs.stream().map(g -> Pattern.compile(Stream.of(g.split("\\*", -1))
                .map(Pattern::quote).collect(Collectors.joining(".*")))).toList();
        return new GroupRule(name, List.copyOf(globs), patterns);
    }

    public boolean matches(String node) {
        return patterns.stream().anyMatch(p -> p.matcher(node).matches());
    }
}
