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
    private final JMXConnector jmx;
    private final BenchControlMXBean control;

    /** @param managementPort the server's management port (local clients need no password) */
    BenchServer(int managementPort) throws IOException, MalformedObjectNameException {
        this.client = ModelControllerClient.Factory.create("remote+http", "127.0.0.1", managementPort);
        this.jmx = JMXConnectorFactory.connect(new JMXServiceURL("service:jmx:remote+http://127.0.0.1:"
                + managementPort));
        MBeanServerConnection server = jmx.getMBeanServerConnection();
        this.control = JMX.newMXBeanProxy(server, new ObjectName(BenchControlMXBean.NAME), BenchControlMXBean.class);
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
        ModelNode result = client.execute(op);
        if (!"success".equals(result.get("outcome").asString())) {
            throw new IOException("cannot " + what + ": " + result);
        }
        return result.get("result");
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
        Path log = Path.of(System.getProperty("ssb.bench.baseDir"), "log", "server.log");
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
