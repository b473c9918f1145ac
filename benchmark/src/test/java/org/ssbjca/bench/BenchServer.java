package org.ssbjca.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.management.JMX;
import javax.management.MBeanServerConnection;
import javax.management.MalformedObjectNameException;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;
import org.jboss.as.controller.client.ModelControllerClient;
import org.jboss.as.controller.client.helpers.standalone.ServerDeploymentHelper;
import org.jboss.dmr.ModelNode;
import org.jboss.shrinkwrap.api.exporter.ZipExporter;
import org.jboss.shrinkwrap.api.spec.JavaArchive;
import org.ssbjca.bench.server.BenchControlMXBean;

/** The running WildFly: deploys the consumers, reads Artemis and the server log, talks to the control MXBean. */
final class BenchServer implements AutoCloseable {

    private final ModelControllerClient client;
    private final int managementPort;
    private JMXConnector jmx;
    private BenchControlMXBean control;

    /** @param managementPort the server's management port (local clients need no password) */
    BenchServer(int managementPort) throws IOException, MalformedObjectNameException {
        this.client = ModelControllerClient.Factory.create("remote+http", "127.0.0.1", managementPort);
        this.managementPort = managementPort;
        connectJmx();
    }

    private void connectJmx() throws IOException, MalformedObjectNameException {
        this.jmx = JMXConnectorFactory.connect(new JMXServiceURL("service:jmx:remote+http://127.0.0.1:"
                + managementPort));
        MBeanServerConnection server = jmx.getMBeanServerConnection();
        this.control = JMX.newMXBeanProxy(server, new ObjectName(BenchControlMXBean.NAME), BenchControlMXBean.class);
    }

    /**
     * Adds the {@code opentelemetry} subsystem as docs/guide/tracing.md does (every trace sampled), its traces, metrics
     * and logs exported over OTLP/HTTP (protobuf) to {@code endpoint}, reloads the server and waits until it runs
     * again with its deployments; {@link #control()} then answers from the reloaded control bean.
     *
     * @param endpoint the base URL of the receiver ({@link OtlpSink#endpoint})
     */
    void enableTracing(String endpoint) throws Exception {
        // the subsystem exports metrics and logs too, over gRPC unless told: all three over OTLP/HTTP to the sink
        execute(op("add", "system-property", "otel.exporter.otlp.protocol", "value", "http/protobuf"),
                "set the exporters' protocol");
        execute(op("add", "system-property", "otel.exporter.otlp.traces.protocol", "value", "http/protobuf"),
                "set the traces' protocol");
        execute(op("add", "system-property", "otel.exporter.otlp.span.endpoint", "value", endpoint),
                "set the traces' endpoint");
        execute(op("add", "extension", "org.wildfly.extension.opentelemetry"), "add the opentelemetry extension");
        execute(op("add", "subsystem", "opentelemetry", "exporter-type", "otlp", "endpoint", endpoint,
                "sampler-type", "on"), "add the opentelemetry subsystem");
        ModelNode reload = new ModelNode();
        reload.get("operation").set("reload");
        reload.get("address").setEmptyList();
        execute(reload, "reload");
        closeJmxQuietly();
        long deadline = System.nanoTime() + 180_000_000_000L;
        Exception last = null;
        while (System.nanoTime() < deadline) {
            try {
                ModelNode state = new ModelNode();
                state.get("operation").set("read-attribute");
                state.get("address").setEmptyList();
                state.get("name").set("server-state");
                if ("running".equals(execute(state, "read the server state").asString())) {
                    connectJmx();
                    control.progress(); // the control bean is registered again
                    return;
                }
            } catch (Exception e) { // the server is still reloading
                last = e;
                closeJmxQuietly();
            }
            java.util.concurrent.locks.LockSupport.parkNanos(500_000_000L);
        }
        throw new IllegalStateException("the server did not run again within 180 s of its reload", last);
    }

    private void closeJmxQuietly() {
        try {
            jmx.close();
        } catch (IOException | RuntimeException e) {
            // closed already, or never connected
        }
    }

    /** @return an operation on {@code /type=name} with the attribute pairs given */
    private static ModelNode op(String operation, String type, String name, String... attributes) {
        ModelNode op = new ModelNode();
        op.get("operation").set(operation);
        op.get("address").add(type, name);
        for (int i = 0; i < attributes.length; i += 2) {
            op.get(attributes[i]).set(attributes[i + 1]);
        }
        return op;
    }

    BenchControlMXBean control() {
        return control;
    }

    void deploy(JavaArchive archive) throws Exception {
        new ServerDeploymentHelper(client)
                .deploy(archive.getName(), archive.as(ZipExporter.class).exportAsInputStream());
    }

    void undeploy(JavaArchive archive) throws Exception {
        new ServerDeploymentHelper(client).undeploy(archive.getName());
    }

    /**
     * Starts or stops the delivery of a deployed message-driven bean: WildFly's {@code start-delivery} and
     * {@code stop-delivery} operations, which activate or deactivate the bean's endpoint at its resource adapter (the
     * readers or sessions start or stop) while the deployment, its classes and its bean pool stay.
     */
    void delivery(JavaArchive archive, String ejbName, boolean active) throws IOException {
        ModelNode op = new ModelNode();
        op.get("operation").set(active ? "start-delivery" : "stop-delivery");
        op.get("address").add("deployment", archive.getName()).add("subsystem", "ejb3")
                .add("message-driven-bean", ejbName);
        respond(op, (active ? "start" : "stop") + " the delivery of " + ejbName + " in " + archive.getName());
    }

    /**
     * Lets Artemis hold {@code bytes} of messages per address in memory before it pages (WildFly's default address
     * setting {@code #} pages from 10 MiB, about 9,800 of the benchmark's messages): the benchmark's backlogs of up to
     * 20,000 messages then stay in memory, Artemis's best case, and its message count is not read through page
     * counters. The setting applies at once (the server needs no reload).
     */
    void keepArtemisInMemory(long bytes) throws IOException {
        ModelNode op = new ModelNode();
        op.get("operation").set("write-attribute");
        op.get("address").add("subsystem", "messaging-activemq").add("server", "default").add("address-setting", "#");
        op.get("name").set("max-size-bytes");
        op.get("value").set(bytes);
        ModelNode result = respond(op, "set the address setting's max-size-bytes");
        if (result.hasDefined("response-headers", "process-state")) {
            throw new IOException("setting max-size-bytes needs a " + result.get("response-headers", "process-state")
                    + "; the benchmark expects it to apply at once");
        }
    }

    /** @return the lines of the server log in which Artemis starts to page an address ({@code AMQ222038}) */
    static List<String> pagingLines() throws IOException {
        return Files.readAllLines(serverLog()).stream().filter(l -> l.contains("AMQ222038")).toList();
    }

    /** @return the running server's log file */
    private static Path serverLog() {
        return Path.of(System.getProperty("ssb.bench.baseDir"), "log", "server.log");
    }

    /** @return messages on the Artemis queue (its runtime resource under the control jar's deployment) */
    long artemisDepth() throws IOException {
        return artemisDepth("BenchQueue");
    }

    /** @return messages on one of the control jar's Artemis queues */
    long artemisDepth(String queue) throws IOException {
        ModelNode op = artemisQueue("read-attribute", queue);
        op.get("name").set("message-count");
        op.get("include-runtime").set(true);
        return execute(op, "read the message count of " + queue).asLong();
    }

    /** Removes every message of one of the control jar's Artemis queues; returns how many. */
    long artemisPurge(String queue) throws IOException {
        ModelNode op = artemisQueue("remove-messages", queue);
        return execute(op, "remove the messages of " + queue).asLong();
    }

    private static ModelNode artemisQueue(String operation, String queue) {
        ModelNode op = new ModelNode();
        op.get("operation").set(operation);
        op.get("address").add("deployment", BenchDeployments.CONTROL).add("subsystem", "messaging-activemq")
                .add("server", "default").add("jms-queue", queue);
        return op;
    }

    private ModelNode execute(ModelNode op, String what) throws IOException {
        return respond(op, what).get("result");
    }

    /** @return the whole response to a successful operation (its result and response headers) */
    private ModelNode respond(ModelNode op, String what) throws IOException {
        ModelNode response = client.execute(op);
        if (!"success".equals(response.get("outcome").asString())) {
            throw new IOException("cannot " + what + ": " + response);
        }
        return response;
    }

    String productVersion() throws IOException {
        ModelNode op = new ModelNode();
        op.get("operation").set("read-attribute");
        op.get("address").setEmptyList();
        op.get("name").set("product-version");
        ModelNode result = client.execute(op);
        return result.get("result").asString();
    }

    /** @return which journal Artemis runs, as its log says (AIO needs libaio), with the log line */
    static String journal() throws IOException {
        Path log = serverLog();
        List<String> lines = Files.readAllLines(log);
        for (String line : lines) {
            if (line.contains("Using AIO Journal")) {
                return "ASYNCIO";
            }
            if (line.contains("Using NIO Journal")) {
                return "NIO";
            }
        }
        return "unknown (no 'Using ... Journal' line in " + log + ")";
    }

    @Override
    public void close() throws IOException {
        jmx.close();
        client.close();
    }
}
