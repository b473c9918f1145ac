package org.ssbjca.it;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.UUID;
import org.jboss.arquillian.container.test.api.ContainerController;
import org.jboss.arquillian.container.test.api.Deployer;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.container.test.api.TargetsContainer;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.ResourceAdapterArchive;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.ssbjca.it.beans.CrashRecordingService;
import org.ssbjca.it.support.Await;
import org.ssbjca.it.support.BrokerDb;
import org.ssbjca.it.support.ManualServer;
import org.ssbjca.it.support.RecordingDatabases;
import org.ssbjca.it.support.RestartablePostgres;

/**
 * WildFly killed with {@code kill -9} mid-stream and started again: every message is processed exactly once. The
 * MDB records each message in another database ({@code records}) through a second connection factory, so every
 * delivery is a two-phase commit of two branches: the reader's RECEIVE in the broker database and the record. A
 * crash leaves some branches prepared; after the restart the transaction manager resolves them through the
 * adapter's recovery resources: {@code ServiceBrokerResourceAdapter.getXAResources} for the broker database (inflow
 * recovery, registered when the MDB is activated), the connection factory's recovery for the record database.
 */
@ExtendWith(ArquillianExtension.class)
class CrashRecoveryIT {

    /** What this test reports (figures, or why a backend is skipped). */
    private static final java.util.logging.Logger FIGURES =
            java.util.logging.Logger.getLogger(CrashRecoveryIT.class.getName());

    /** The manual node's JVM arguments. */
    private static final String NODE_ARGUMENTS = "-DRecoveryEnvironmentBean.periodicRecoveryPeriod=10"
            + " -DRecoveryEnvironmentBean.recoveryBackoffPeriod=2";

    private static final String QUEUE = CrashRecordingService.QUEUE;
    private static final String RECORDS_DB = RecordingDatabases.RECORDS_DB;
    private static RecordingDatabases databases;
    private static RestartablePostgres pg;
    private static BrokerDb broker;
    private static BrokerDb records;

    @ArquillianResource
    ContainerController controller;

    @ArquillianResource
    Deployer deployer;

    @Deployment(name = "crash-rar", order = 1, managed = false, testable = false)
    @TargetsContainer(ManualServer.QUALIFIER)
    static ResourceAdapterArchive rar() {
        init();
        return databases.rar();
    }

    @Deployment(name = "crash-beans", order = 2, managed = false, testable = false)
    @TargetsContainer(ManualServer.QUALIFIER)
    static WebArchive beans() {
        return RecordingDatabases.beans("crash-recovery-it.war");
    }

    private static synchronized void init() {
        if (databases == null) {
            databases = RecordingDatabases.create("crash-it", QUEUE);
            pg = databases.pg();
            broker = databases.broker();
            records = databases.records();
        }
    }

    @Test
    @RunAsClient
    void everyMessageIsProcessedExactlyOnceAcrossAKillMinus9() {
        init();
        String run = "crash-" + UUID.randomUUID();
        int sent = broker.send(QUEUE, run, 40, 50);
        ManualServer.resetBaseDir();
        controller.start(ManualServer.QUALIFIER, ManualServer.config(NODE_ARGUMENTS));
        try {
            deployer.deploy("crash-rar");
            deployer.deploy("crash-beans");
            Await.count("recorded before the kill", sent / 4, Duration.ofSeconds(120), () -> recorded(run));

            // Kill while a delivery is between prepare and commit, if one is seen within 10 s.
            long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            while (broker.prepared() == 0 && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
            ManualServer.killHard();
            controller.kill(ManualServer.QUALIFIER);
            long atKill = recorded(run);
            long inDoubtBroker = broker.prepared("postgres");
            long inDoubtRecords = broker.prepared(RECORDS_DB);
            long waitingAtKill = broker.depth(QUEUE);

            long restartAt = System.nanoTime();
            controller.start(ManualServer.QUALIFIER, ManualServer.config(NODE_ARGUMENTS));
            Await.count("all recorded after the restart", sent, Duration.ofSeconds(240), () -> recorded(run));
            long allRecordedMillis = (System.nanoTime() - restartAt) / 1_000_000;
            await("no branch left in doubt").atMost(Duration.ofSeconds(240)).until(() -> broker.prepared() == 0);
            long resolvedMillis = (System.nanoTime() - restartAt) / 1_000_000;
            await("queue drained").atMost(Duration.ofSeconds(60)).until(() -> broker.depth(QUEUE) == 0);

            long count = recorded(run);
            long distinct = records.count("SELECT COUNT(DISTINCT body) FROM it_record WHERE body LIKE ?", run + "%");
            FIGURES.info(String.format("kill -9 mid-stream: %d of %d recorded and %d waiting in the queue at the kill; "
                    + "branches in doubt: %d in the broker database, %d in the record database; after the "
                    + "restart all recorded in %d ms, every branch resolved in %d ms; %d rows, %d distinct, "
                    + "%d dead letters", atKill, sent, waitingAtKill, inDoubtBroker, inDoubtRecords,
                    allRecordedMillis, resolvedMillis, count, distinct,
                    broker.count("SELECT COUNT(*) FROM ssb.dead_letter")));
            assertEquals(sent, count, "every message recorded once: none lost, none twice");
            assertEquals(sent, distinct);
            assertEquals(0, broker.count("SELECT COUNT(*) FROM ssb.dead_letter"));
        } finally {
            try {
                deployer.undeploy("crash-beans");
                deployer.undeploy("crash-rar");
            } finally {
                controller.stop(ManualServer.QUALIFIER);
            }
        }
    }

    private static long recorded(String run) {
        return databases.recorded(run);
    }
}
