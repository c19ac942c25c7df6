package io.rdmamon.nativeio;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Assumptions;

import jnr.ffi.Struct;

/**
 * The C truth for the struct layouts: compiles {@code src/test/c/layout_probe.c} with gcc into
 * {@code target/}, runs it once per JVM and keeps its {@code name value} lines.
 */
public final class LayoutProbe {
    private static final Path SOURCE = Path.of("src/test/c/layout_probe.c");
    private static final Path BINARY = Path.of("target/layout-probe/layout_probe");
    /** jnr's Struct.Member and Struct.Padding are protected nested classes: matched by name. */
    private static final String PADDING = "jnr.ffi.Struct$Padding";
    private static final Class<?> MEMBER = memberClass();
    private static Map<String, Long> values;

    private static Class<?> memberClass() {
        try {
            return Class.forName("jnr.ffi.Struct$Member");
        } catch (ClassNotFoundException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private LayoutProbe() {
    }

    /** Skips the calling test (with the reason) when gcc is not installed. */
    public static synchronized Map<String, Long> values() throws IOException, InterruptedException {
        if (values == null) {
            Assumptions.assumeTrue(Commands.available("gcc", "--version"),
                    "gcc is not installed: the struct layouts cannot be checked against C");
            Files.createDirectories(BINARY.getParent());
            Commands.run(List.of("gcc", "-std=gnu11", "-Wall", "-Werror", "-o", BINARY.toString(), SOURCE.toString()));
            Map<String, Long> parsed = new HashMap<>();
            for (String line : Commands.run(List.of(BINARY.toString())).split("\n")) {
                int lastSpace = line.lastIndexOf(' ');
                parsed.put(line.substring(0, lastSpace), Long.parseLong(line.substring(lastSpace + 1)));
            }
            values = Map.copyOf(parsed);
        }
        return values;
    }

    /** {@code const NAME}'s value in the C headers. */
    public static long constant(String name) throws IOException, InterruptedException {
        Long value = values().get("const " + name);
        assertNotNull(value, "probe prints no constant " + name);
        return value;
    }

    /**
     * Asserts that {@code struct}'s size equals {@code sizeof(struct cName)} and that its fields are
     * exactly the C fields (by name, except the ones listed in {@code cOnlyFields}, e.g. a flexible
     * array member) at the same offsets. {@link Struct.Padding} members are layout filler, not fields.
     */
    public static void assertLayout(Struct struct, String cName, Set<String> cOnlyFields) throws Exception {
        Map<String, Long> probe = values();
        assertEquals(probe.get(cName + " sizeof"), (long) Struct.size(struct), "sizeof(struct " + cName + ")");
        Set<String> javaFields = new TreeSet<>();
        for (Field field : struct.getClass().getDeclaredFields()) {
            if (Modifier.isStatic(field.getModifiers()) || field.getType().getName().equals(PADDING)) {
                continue;
            }
            field.setAccessible(true);
            Object member = field.get(struct);
            if (member instanceof Object[] array) {
                member = array[0];
            }
            if (!MEMBER.isInstance(member)) {
                continue;
            }
            long offset = (long) member.getClass().getMethod("offset").invoke(member);
            javaFields.add(field.getName());
            assertEquals(probe.get(cName + "." + field.getName()), offset,
                    "offsetof(struct " + cName + ", " + field.getName() + ")");
        }
        Set<String> cFields = probe.keySet().stream()
                .filter(key -> key.startsWith(cName + ".")).map(key -> key.substring(cName.length() + 1))
                .filter(name -> !cOnlyFields.contains(name))
                .collect(Collectors.toCollection(TreeSet::new));
        assertEquals(cFields, javaFields, "fields of struct " + cName);
        assertTrue(!javaFields.isEmpty(), "no fields found in " + struct.getClass());
    }
}
