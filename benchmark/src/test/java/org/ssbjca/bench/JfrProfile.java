package org.ssbjca.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Where WildFly's readers spend their CPU: a JFR recording of WildFly's JVM started and stopped with {@code jcmd}
 * around a drain (default settings, method sampling every millisecond: at every 10 ms a drain gave under a hundred
 * samples; sampling this often costs WildFly CPU of its own, so only the shares count), then the execution samples of
 * the WorkManager threads the adapter's readers run on, each placed twice: by the component of its innermost frame
 * that is not the JDK's (the adapter, the JDBC driver, the transaction manager, the EJB container...) and by the step
 * of the delivery it is in (RECEIVE, the container's beforeDelivery, the MDB's call, afterDelivery's commit).
 * JFR samples a thread only while it runs Java code: a share of the samples is a share of the readers' Java CPU.
 */
final class JfrProfile {

    private static final String NAME = "ssb-bench-profile";
    /** The WorkManager threads WildFly runs the adapter's readers on. */
    static final String READER_THREADS = "default-threads";
    /** The threads of the loop inside WildFly ({@code ContainerLoop}). */
    static final String LOOP_THREADS = "bench-container-loop-";

    private static final String ADAPTER = "the adapter (ssb-jca)";

    /** Components by package prefix, the first match of the innermost non-JDK frame wins. */
    private static final Map<String, List<String>> COMPONENTS = new LinkedHashMap<>();

    static {
        COMPONENTS.put("the MDB's own code (the benchmark's onMessage)", List.of("org.ssbjca.bench."));
        COMPONENTS.put(ADAPTER, List.of("org.ssbjca."));
        COMPONENTS.put("the JDBC driver (pgjdbc)", List.of("org.postgresql."));
        COMPONENTS.put("the transaction manager (Narayana, WildFly's transaction client)", List.of("com.arjuna.",
                "org.wildfly.transaction.", "org.jboss.tm.", "org.jboss.jbossts."));
        COMPONENTS.put("the EJB container (the MDB's invocation: interceptors, security, naming)", List.of(
                "org.jboss.as.ejb3.", "org.jboss.invocation.", "org.jboss.as.ee.", "org.wildfly.security.",
                "org.jboss.as.naming.", "org.wildfly.extension.requestcontroller.", "org.jboss.weld.",
                "org.jboss.as.weld.", "org.jboss.as.txn."));
        COMPONENTS.put("the connector (IronJacamar, the WorkManager, threads)", List.of("org.jboss.jca.",
                "org.jboss.as.connector.", "org.jboss.threads.", "org.jboss.as.threads."));
        COMPONENTS.put("logging", List.of("org.jboss.logging.", "org.jboss.logmanager."));
    }

    /** Delivery steps by method, the innermost match wins. */
    static final Map<String, List<String>> STEPS = new LinkedHashMap<>();

    static {
        STEPS.put("RECEIVE (the statement, reading its rows)", List.of("org.ssbjca.inbound.DeliverySteps.receive"));
        STEPS.put("beforeDelivery: the container begins the transaction, enlists the reader's branch", List.of(
                "org.jboss.as.ejb3.inflow.MessageEndpointInvocationHandler.beforeDelivery"));
        STEPS.put("afterDelivery: the container's one-phase commit", List.of(
                "org.jboss.as.ejb3.inflow.MessageEndpointInvocationHandler.afterDelivery"));
        STEPS.put("the MDB's call through the container (onMessage)", List.of(
                "org.jboss.as.ejb3.inflow.MessageEndpointInvocationHandler.doInvoke"));
    }

    static final String OTHER_STEP = "the reader's own work between deliveries (waiting, bookkeeping)";
    static final String OTHER_COMPONENT = "the JDK alone, or other";

    private final long pid;
    private final Path file;

    private JfrProfile(long pid, Path file) {
        this.pid = pid;
        this.file = file;
    }

    /**
     * @param pid WildFly's JVM
     * @param file where the recording goes
     * @return the recording, or empty with the reason printed
     */
    static Optional<JfrProfile> start(long pid, Path file) {
        return started(pid, "JFR profile", "name=" + NAME, "settings=default", "method-profiling=max",
                "filename=" + file) ? Optional.of(new JfrProfile(pid, file)) : Optional.empty();
    }

    /**
     * Starts a recording in WildFly's JVM with {@code jcmd}.
     *
     * @param pid WildFly's JVM
     * @param what what the recording is for, as the benchmark prints it when it could not start
     * @param options {@code JFR.start}'s options
     * @return whether it started; if not, the reason is printed
     */
    static boolean started(long pid, String what, String... options) {
        try {
            List<String> command = new ArrayList<>(List.of("JFR.start"));
            command.addAll(List.of(options));
            String out = jcmd(pid, command.toArray(String[]::new));
            if (!out.contains("Started recording")) {
                System.out.println("[benchmark] " + what + " not recorded: " + out.strip());
                return false;
            }
            return true;
        } catch (IOException e) {
            System.out.println("[benchmark] " + what + " not recorded: " + e.getMessage());
            return false;
        }
    }

    /** Stops the recording and writes its file. */
    void stop() throws IOException {
        jcmd(pid, "JFR.stop", "name=" + NAME);
    }

    /** Samples of the readers' threads: [0] by component, [1] by step, [2] the adapter's by method; counts. */
    List<Map<String, Long>> readerSamples() throws IOException, InterruptedException {
        return samples(READER_THREADS);
    }

    /**
     * @param threads the name prefix of the threads counted
     * @return their samples: [0] by component, [1] by step, [2] those whose component is the adapter by their
     *     innermost adapter frame; counts
     */
    List<Map<String, Long>> samples(String threads) throws IOException, InterruptedException {
        Map<String, Long> byAdapterMethod = new java.util.HashMap<>();
        Map<String, Long> byComponent = new LinkedHashMap<>();
        COMPONENTS.keySet().forEach(k -> byComponent.put(k, 0L));
        byComponent.put(OTHER_COMPONENT, 0L);
        Map<String, Long> byStep = new LinkedHashMap<>();
        STEPS.keySet().forEach(k -> byStep.put(k, 0L));
        byStep.put(OTHER_STEP, 0L);
        Process print = new ProcessBuilder(tool("jfr"), "print", "--events", "jdk.ExecutionSample", "--stack-depth",
                "256",
                file.toString()).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(print.getInputStream(),
                StandardCharsets.UTF_8))) {
            List<String> frames = new ArrayList<>();
            boolean reader = false;
            boolean inStack = false;
            for (String line = r.readLine(); line != null; line = r.readLine()) {
                String t = line.strip();
                if (t.startsWith("sampledThread = \"")) {
                    reader = t.startsWith("sampledThread = \"" + threads);
                } else if (t.startsWith("stackTrace = [")) {
                    inStack = true;
                    frames.clear();
                } else if (inStack && t.equals("]")) {
                    inStack = false;
                    if (reader && !frames.isEmpty()) {
                        String component = component(frames);
                        byComponent.merge(component, 1L, Long::sum);
                        if (ADAPTER.equals(component)) {
                            frames.stream().filter(f -> f.startsWith("org.ssbjca.")).findFirst()
                                    .ifPresent(f -> byAdapterMethod.merge(f, 1L, Long::sum));
                        }
                        byStep.merge(step(frames), 1L, Long::sum);
                    }
                } else if (inStack && !t.equals("...")) {
                    int paren = t.indexOf('(');
                    frames.add(paren > 0 ? t.substring(0, paren) : t);
                }
            }
        }
        print.waitFor();
        return List.of(byComponent, byStep, byAdapterMethod);
    }

    private static String component(List<String> frames) {
        for (String f : frames) {
            for (Map.Entry<String, List<String>> c : COMPONENTS.entrySet()) {
                for (String prefix : c.getValue()) {
                    if (f.startsWith(prefix)) {
                        return c.getKey();
                    }
                }
            }
        }
        return OTHER_COMPONENT;
    }

    private static String step(List<String> frames) {
        for (String f : frames) {
            for (Map.Entry<String, List<String>> s : STEPS.entrySet()) {
                if (s.getValue().contains(f)) {
                    return s.getKey();
                }
            }
        }
        return OTHER_STEP;
    }

    static String jcmd(long pid, String... command) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(tool("jcmd"), Long.toString(pid)));
        cmd.addAll(List.of(command));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        try {
            p.waitFor();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return out;
    }

    /** A tool of the JDK this JVM runs on (WildFly runs on the same). */
    static String tool(String name) {
        return Path.of(System.getProperty("java.home"), "bin", name).toString();
    }
}
