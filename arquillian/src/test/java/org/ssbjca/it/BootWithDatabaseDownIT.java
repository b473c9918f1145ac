package org.ssbjca.it;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.logging.Logger;
import org.jboss.arquillian.container.test.api.ContainerController;
import org.jboss.arquillian.container.test.api.Deployer;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.container.test.api.TargetsContainer;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.as.controller.client.ModelControllerClient;
import org.jboss.as.controller.client.helpers.Operations;
import org.jboss.dmr.ModelNode;
import org.jboss.shrinkwrap.api.spec.ResourceAdapterArchive;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.ssbjca.it.beans.CrashRecordingService;
import org.ssbjca.it.support.BrokerDb;
import org.ssbjca.it.support.ManualServer;
import org.ssbjca.it.support.RecordingDatabases;
import org.ssbjca.it.support.RestartablePostgres;

/**
 * WildFly boots while the broker database is down. The adapter and a message-driven bean are deployed on the manual
 * server; the server is stopped with 100 messages queued, PostgreSQL is stopped, and the server is started again, so
 * that it deploys both at boot with the database unreachable. The server must stay up with both deployments running
 * (before the deploy-time fix, the activation failed with "cannot create the broker schema ... Connection refused" and
 * WildFly shut itself down, WFLYSRV0055); once PostgreSQL is back, the readers' backoff finds it and every message is
 * recorded, once, with no redeploy. The first stop, with the database up, must leave no error of the work manager's
 * pool in the server's log (the adapter's PostgreSQL tasks end before its stop returns).
 */
@ExtendWith(ArquillianExtension.class)
class BootWithDatabaseDownIT {

    /** The manual node's JVM arguments. */
    private static final String NODE_ARGUMENTS = "-Djboss.node.name=manual"
            + " -Djboss.tx.node.id=manual";

    private static final Logger FIGURES = Logger.getLogger("org.ssbjca.figures");
    private static final String QUEUE = CrashRecordingService.QUEUE;
    private static final String WAR = "boot-with-database-down-it.war";
    private static RecordingDatabases databases;
    private static RestartablePostgres pg;
    private static BrokerDb broker;
    private static BrokerDb records;

    @ArquillianResource
    ContainerController controller;

    @ArquillianResource
    Deployer deployer;

    @Deployment(name = "boot-rar", order = 1, managed = false, testable = false)
    @TargetsContainer(ManualServer.QUALIFIER)
    static ResourceAdapterArchive rar() {
        init();
        return databases.rar();
    }

    @Deployment(name = "boot-beans", order = 2, managed = false, testable = false)
    @TargetsContainer(ManualServer.QUALIFIER)
    static WebArchive beans() {
        return RecordingDatabases.beans(WAR);
    }

    private static synchronized void init() {
        if (databases == null) {
            databases = RecordingDatabases.create("boot-it", QUEUE);
            pg = databases.pg();
            broker = databases.broker();
            records = databases.records();
        }
    }

    @Test
    @RunAsClient
    void theServerBootsWithTheDatabaseDownAndDeliversOnceItIsBack() throws IOException {
        init();
        String before = "before-" + UUID.randomUUID();
        String run = "boot-" + UUID.randomUUID();
        ManualServer.resetBaseDir();
        controller.start(ManualServer.QUALIFIER, ManualServer.config(NODE_ARGUMENTS));
        try {
            deployer.deploy("boot-rar");
            deployer.deploy("boot-beans");
            int warmUp = broker.send(QUEUE, before, 2, 5);
            await("delivery works before the restart").atMost(Duration.ofSeconds(60))
                    .until(() -> recorded(before) == warmUp);
            controller.stop(ManualServer.QUALIFIER);
            // the adapter's stop waited for its PostgreSQL listener and notifier: a task of the work manager that
            // ended after the server had stopped the pool logged this error (twice at most stops before the fix)
            assertEquals(List.of(), ManualServer.logLines("Maximum permit count exceeded"),
                    "errors of the work manager's pool at the server's stop");
            int sent = broker.send(QUEUE, run, 10, 10);
            pg.stop();

            long bootAt = System.nanoTime();
            controller.start(ManualServer.QUALIFIER, ManualServer.config(NODE_ARGUMENTS));
            long bootMillis = (System.nanoTime() - bootAt) / 1_000_000;
            // up and staying up: WildFly shut itself down about 6 s after such a boot when a deployment failed
            await("the server running with both deployments, for 10 s").during(Duration.ofSeconds(10))
                    .atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofSeconds(1))
                    .until(() -> "running".equals(read(null, "server-state"))
                            && "OK".equals(read("ssb-jca.rar", "status"))
                            && "OK".equals(read(WAR, "status")));

            long backAt = System.nanoTime();
            pg.start();
            await("every message recorded").atMost(Duration.ofSeconds(120)).until(() -> recorded(run) == sent);
            long deliveredMillis = (System.nanoTime() - backAt) / 1_000_000;
            long distinct = records.count("SELECT COUNT(DISTINCT body) FROM it_record WHERE body LIKE ?", run + "%");
            FIGURES.info(String.format("boot with the database down: booted in %d ms with both deployments up;"
                    + " %d messages queued before, all recorded %d ms after the database returned, %d distinct",
                    bootMillis, sent, deliveredMillis, distinct));
            assertEquals(sent, recorded(run), "each recorded once");
            assertEquals(sent, distinct);
            await("queue drained").atMost(Duration.ofSeconds(30)).until(() -> broker.depth(QUEUE) == 0);
        } finally {
            pg.stop(); // running again whatever the test reached, for the next test of the class
            pg.start();
            if (ManualServer.process() == null) {
                // the server ended by itself (as it did when a deployment failed at boot): forget it
                controller.kill(ManualServer.QUALIFIER);
            } else {
                try {
                    deployer.undeploy("boot-beans");
                    deployer.undeploy("boot-rar");
                } finally {
                    controller.stop(ManualServer.QUALIFIER);
                }
            }
        }
    }

    private static long recorded(String prefix) {
        return databases.recorded(prefix);
    }

    /**
     * @param deployment a deployment's name, or null for the server itself
     * @return the attribute's value through the manual server's management interface, or null when it does not answer
     */
    private static String read(String deployment, String attribute) {
        int port = Integer.getInteger("ssb.it.manualManagementPort", 10090);
        try (ModelControllerClient client = ModelControllerClient.Factory.create("remote+http", "127.0.0.1", port)) {
            ModelNode address = new ModelNode().setEmptyList();
            if (deployment != null) {
                address.add("deployment", deployment);
            }
            ModelNode outcome = client.execute(Operations.createReadAttributeOperation(address, attribute));
            return Operations.isSuccessfulOutcome(outcome) ? Operations.readResult(outcome).asString() : null;
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

}
