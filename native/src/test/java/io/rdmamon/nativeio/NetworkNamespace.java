package io.rdmamon.nativeio;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import jnr.ffi.LibraryLoader;

/**
 * A network namespace created by a test ({@code ip netns add}), with one dedicated JVM thread that
 * has joined it by {@code setns(2)}: sockets that thread creates belong to the namespace. The
 * thread is never reused for anything else and ends with {@link #close()}, which deletes the namespace.
 */
public final class NetworkNamespace implements AutoCloseable {
    private static final int O_RDONLY = 0;
    private static final int O_CLOEXEC = 0x80000;
    private static final int CLONE_NEWNET = 0x40000000;

    /** The calls the test needs that the production libc binding does not. */
    public interface NamespaceLibC {
        int open(String path, int flags);

        int setns(int fd, int nstype);

        int close(int fd);

        int geteuid();
    }

    private static final NamespaceLibC LIBC = LibraryLoader.create(NamespaceLibC.class).failImmediately().load("c");

    private final String name;
    private final ExecutorService thread;

    private NetworkNamespace(String name) {
        this.name = name;
        this.thread = Executors.newSingleThreadExecutor(task -> new Thread(task, "netns-" + name));
    }

    public static boolean runningAsRoot() {
        return LIBC.geteuid() == 0;
    }

    /** {@code ip netns add name}, then moves the dedicated thread into it. */
    public static NetworkNamespace create(String name) throws IOException, InterruptedException {
        Commands.run(List.of("ip", "netns", "add", name));
        NetworkNamespace namespace = new NetworkNamespace(name);
        try {
            namespace.call(() -> {
                int fd = LIBC.open("/var/run/netns/" + name, O_RDONLY | O_CLOEXEC);
                if (fd < 0) {
                    throw new IOException("open /var/run/netns/" + name + ": " + Errno.describe(Errno.last()));
                }
                try {
                    if (LIBC.setns(fd, CLONE_NEWNET) != 0) {
                        throw new IOException("setns " + name + ": " + Errno.describe(Errno.last()));
                    }
                } finally {
                    LIBC.close(fd);
                }
                return null;
            });
        } catch (IOException | RuntimeException e) {
            namespace.close();
            throw e;
        }
        return namespace;
    }

    public String name() {
        return name;
    }

    /** Runs {@code task} on the thread inside the namespace and waits for it. */
    public <T> T call(Callable<T> task) throws IOException, InterruptedException {
        return await(submit(task));
    }

    public <T> Future<T> submit(Callable<T> task) {
        return thread.submit(task);
    }

    public static <T> T await(Future<T> future) throws IOException, InterruptedException {
        try {
            return future.get(30, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof IOException io) {
                throw io;
            }
            throw new IOException(e.getCause());
        } catch (java.util.concurrent.TimeoutException e) {
            future.cancel(true);
            throw new IOException("task in network namespace did not finish in 30 s", e);
        }
    }

    /** {@code ip -n name ARGS...} */
    public String ip(String... args) throws IOException, InterruptedException {
        List<String> argv = new ArrayList<>(List.of("ip", "-n", name));
        argv.addAll(List.of(args));
        return Commands.run(argv);
    }

    /** {@code ip netns exec name ARGV...}: a program run inside the namespace. */
    public String exec(String... args) throws IOException, InterruptedException {
        List<String> argv = new ArrayList<>(List.of("ip", "netns", "exec", name));
        argv.addAll(List.of(args));
        return Commands.run(argv);
    }

    /** Ends the thread and deletes the namespace (its interfaces go with it). */
    @Override
    public void close() throws IOException, InterruptedException {
        thread.shutdownNow();
        thread.awaitTermination(10, TimeUnit.SECONDS);
        Commands.run(List.of("ip", "netns", "delete", name));
    }
}
