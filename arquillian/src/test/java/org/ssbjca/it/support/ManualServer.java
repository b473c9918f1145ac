package org.ssbjca.it.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * The second WildFly, {@value #QUALIFIER} in arquillian.xml, which only tests start, stop and kill: for what must
 * survive a crash (transaction recovery, redelivery after {@code kill -9}). Client side only.
 * <p>
 * A test drives it with Arquillian's {@code ContainerController} and {@code Deployer}:
 * <pre>{@code
 * @ArquillianResource ContainerController controller;
 * @ArquillianResource Deployer deployer;
 *
 * @Deployment(name = "rar", managed = false, testable = false) @TargetsContainer(ManualServer.QUALIFIER)
 * static ResourceAdapterArchive rar() { ... }
 *
 * controller.start(ManualServer.QUALIFIER);
 * deployer.deploy("rar");
 * ...
 * ManualServer.killHard();                 // SIGKILL, no shutdown hook, no clean close
 * controller.kill(ManualServer.QUALIFIER); // lets Arquillian forget the dead process (it stops nothing more)
 * controller.start(ManualServer.QUALIFIER);// same base directory: deployments and transaction log are still there
 * }</pre>
 * WildFly itself redeploys what was deployed before the kill when it boots again; do not deploy twice.
 */
public final class ManualServer {

    /** The container qualifier in arquillian.xml. */
    public static final String QUALIFIER = "wildfly-manual";
    /** System property: the server base directory of the manual container. */
    public static final String BASE_DIR_PROPERTY = "ssb.it.manualBaseDir";
    /** System property: the WildFly installation. */
    public static final String JBOSS_HOME_PROPERTY = "jboss.home";

    private static final String BASE_DIR_OPTION = "-Djboss.server.base.dir=";

    private ManualServer() {
    }

    /**
     * The container configuration a test starts the manual server with: {@code standalone-full.xml}, its port offset
     * and base directory, plus the test's own JVM arguments.
     *
     * @param jvmArguments more JVM arguments (system properties of the node), or an empty string
     * @return the map for {@code ContainerController.start}
     */
    public static Map<String, String> config(String jvmArguments) {
        // the server configuration named each time: Arquillian keeps a start's override for the starts after it
        return Map.of("serverConfig", "standalone-full.xml",
                "javaVmArguments", "-Xms128m -Xmx1g -XX:MaxMetaspaceSize=512m -Djava.net.preferIPv4Stack=true"
                + " -Djava.awt.headless=true -Djboss.socket.binding.port-offset="
                + Integer.getInteger("ssb.it.manualPortOffset", 100)
                + " -Djboss.server.base.dir=" + baseDir() + (jvmArguments.isEmpty() ? "" : " " + jvmArguments));
    }

    /** @return the server base directory (configuration, data, log) of the manual container */
    public static Path baseDir() {
        return Path.of(required(BASE_DIR_PROPERTY)).toAbsolutePath().normalize();
    }

    /**
     * Makes the base directory a fresh copy of the distribution's {@code standalone/configuration} and
     * {@code deployments}: no deployment, no transaction log. Only while the server is stopped.
     */
    public static void resetBaseDir() {
        if (process() != null) {
            throw new IllegalStateException("the manual server is running; stop it before resetting " + baseDir());
        }
        Path standalone = Path.of(required(JBOSS_HOME_PROPERTY), "standalone");
        Path base = baseDir();
        try {
            deleteTree(base);
            copyTree(standalone.resolve("configuration"), base.resolve("configuration"));
            copyTree(standalone.resolve("deployments"), base.resolve("deployments"));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot reset " + base, e);
        }
    }

    /**
     * @return the running manual server's JVM (a child of this test JVM), or {@code null} when none runs
     */
    public static ProcessHandle process() {
        Path base = baseDir();
        List<ProcessHandle> found = ProcessHandle.current().descendants()
                .filter(p -> p.info().arguments().map(args -> runsOn(args, base)).orElse(false))
                .collect(Collectors.toList());
        if (found.size() > 1) {
            throw new IllegalStateException("more than one process runs on " + base + ": " + found);
        }
        return found.isEmpty() ? null : found.get(0);
    }

    private static boolean runsOn(String[] args, Path base) {
        for (String arg : args) {
            if (arg.startsWith(BASE_DIR_OPTION)
                    && Path.of(arg.substring(BASE_DIR_OPTION.length())).toAbsolutePath().normalize().equals(base)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Kills the manual server with SIGKILL, as {@code kill -9} does, and waits until it is gone.
     *
     * @throws IllegalStateException if it does not run, or is still there after 30 s
     */
    public static void killHard() {
        ProcessHandle server = process();
        if (server == null) {
            throw new IllegalStateException("the manual server does not run");
        }
        server.destroyForcibly();
        try {
            server.onExit().get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("the manual server (pid " + server.pid() + ") survived SIGKILL", e);
        }
    }

    /**
     * @param text what to look for
     * @return the lines of the manual server's log ({@code log/server.log} in its base directory) that contain it
     */
    public static List<String> logLines(String text) {
        try (var lines = Files.lines(baseDir().resolve("log").resolve("server.log"))) {
            return lines.filter(line -> line.contains(text)).collect(Collectors.toList());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the manual server's log", e);
        }
    }

    private static String required(String property) {
        String value = System.getProperty(property);
        if (value == null || value.isBlank()) {
            throw new IllegalStateException("system property " + property + " is not set (failsafe sets it)");
        }
        return value;
    }

    private static void copyTree(Path from, Path to) throws IOException {
        Files.walkFileTree(from, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) throws IOException {
                Files.createDirectories(to.resolve(from.relativize(dir)));
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                Files.copy(file, to.resolve(from.relativize(file)), StandardCopyOption.REPLACE_EXISTING);
                return FileVisitResult.CONTINUE;
            }
        });
    }

    private static void deleteTree(Path root) throws IOException {
        if (Files.notExists(root)) {
            return;
        }
        Files.walkFileTree(root, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                Files.delete(file);
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path dir, IOException e) throws IOException {
                if (e != null) {
                    throw e;
                }
                Files.delete(dir);
                return FileVisitResult.CONTINUE;
            }
        });
    }
}
