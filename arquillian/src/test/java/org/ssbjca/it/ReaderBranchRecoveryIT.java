package org.ssbjca.it;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
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
import org.jboss.shrinkwrap.api.spec.ResourceAdapterArchive;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.ssbjca.it.beans.HeldCommitRecordingService;
import org.ssbjca.it.beans.Recorder;
import org.ssbjca.it.beans.SlowPrepare;
import org.ssbjca.it.support.BrokerDb;
import org.ssbjca.it.support.Deployments;
import org.ssbjca.it.support.LogStore;
import org.ssbjca.it.support.ManualServer;
import org.ssbjca.it.support.RecordingDatabases;

/**
 * Issue 17.5: a transaction record whose reader branch had already committed when WildFly was killed is finished and
 * removed by recovery, not reported at every scan forever.
 *
 * <p>The state is made on purpose, not hoped for: one message, whose delivery records it in a second database and
 * then holds its last prepare for {@value HeldCommitRecordingService#PREPARE_MILLIS} ms. While it is held, the test
 * freezes ({@code SIGSTOP}) the PostgreSQL sessions of the record database. The transaction manager then commits the
 * reader's branch (the RECEIVE: the message leaves the queue) and hangs on the record's commit; the test kills the
 * server there ({@code kill -9}), then the frozen sessions, so that the commit they hold unread never runs. After the
 * restart the log holds one transaction with two branches: the record's,
 * still prepared in the database, which the connection factory's recovery commits; and the reader's, which no
 * database holds any more. Before the fix the transaction manager could not tell that the reader's branch was
 * complete: the transaction stayed in the log store and every scan logged ARJUNA016037/016038.
 */
@ExtendWith(ArquillianExtension.class)
class ReaderBranchRecoveryIT {

    private static final Logger FIGURES = Logger.getLogger(ReaderBranchRecoveryIT.class.getName());
    private static final String NODE_ARGUMENTS = "-DRecoveryEnvironmentBean.periodicRecoveryPeriod=10"
            + " -DRecoveryEnvironmentBean.recoveryBackoffPeriod=2";
    private static final String QUEUE = HeldCommitRecordingService.QUEUE;
    private static RecordingDatabases databases;

    @ArquillianResource
    ContainerController controller;

    @ArquillianResource
    Deployer deployer;

    @Deployment(name = "held-rar", order = 1, managed = false, testable = false)
    @TargetsContainer(ManualServer.QUALIFIER)
    static ResourceAdapterArchive rar() {
        init();
        return databases.rar();
    }

    @Deployment(name = "held-beans", order = 2, managed = false, testable = false)
    @TargetsContainer(ManualServer.QUALIFIER)
    static WebArchive beans() {
        return Deployments.testWar("held-commit-it.war", HeldCommitRecordingService.class, Recorder.class,
                SlowPrepare.class);
    }

    private static synchronized void init() {
        if (databases == null) {
            databases = RecordingDatabases.create("held-commit-it", QUEUE);
        }
    }

    @Test
    @RunAsClient
    void aLoggedTransactionWhoseReaderBranchHadCommittedIsFinishedAndRemoved() {
        init();
        BrokerDb broker = databases.broker();
        String run = "held-" + UUID.randomUUID();
        ManualServer.resetBaseDir();
        controller.start(ManualServer.QUALIFIER, ManualServer.config(NODE_ARGUMENTS));
        List<Long> frozen = new ArrayList<>();
        boolean running = true;
        try {
            deployer.deploy("held-rar");
            deployer.deploy("held-beans");
            broker.sendOne(QUEUE, run);

            await("the record's branch prepared").atMost(Duration.ofSeconds(120))
                    .until(() -> databases.broker().prepared(RecordingDatabases.RECORDS_DB) == 1);
            frozen.addAll(broker.numbers("SELECT pid FROM pg_stat_activity WHERE datname = ?",
                    RecordingDatabases.RECORDS_DB));
            signal("STOP", frozen);
            await("the reader's branch committed").atMost(Duration.ofSeconds(60))
                    .until(() -> databases.broker().prepared("postgres") == 0 && broker.depth(QUEUE) == 0);
            ManualServer.killHard();
            controller.kill(ManualServer.QUALIFIER);
            running = false;
            // The frozen sessions hold the record's COMMIT PREPARED, unread, in their sockets: resumed, they would
            // run it. Killed instead (PostgreSQL then restarts its sessions; prepared transactions survive).
            signal("KILL", frozen);
            frozen.clear();
            await("PostgreSQL back after its sessions were killed").atMost(Duration.ofSeconds(60))
                    .ignoreExceptions().until(() -> databases.broker().prepared("postgres") == 0);
            assertEquals(1, databases.broker().prepared(RecordingDatabases.RECORDS_DB),
                    "the record's branch in doubt at the kill");
            assertEquals(0, databases.recorded(run), "the record not committed at the kill");

            long restartAt = System.nanoTime();
            controller.start(ManualServer.QUALIFIER, ManualServer.config(NODE_ARGUMENTS));
            running = true;
            await("the record committed by recovery").atMost(Duration.ofSeconds(120))
                    .until(() -> databases.recorded(run) == 1
                            && databases.broker().prepared(RecordingDatabases.RECORDS_DB) == 0);
            long recordedMillis = (System.nanoTime() - restartAt) / 1_000_000;
            List<String> left = new ArrayList<>();
            try {
                // Polled slowly: each probe of the log store reads the record again and logs its own warnings.
                await("the transaction removed from the log store").atMost(Duration.ofSeconds(90))
                        .pollInterval(Duration.ofSeconds(5)).until(() -> {
                            left.clear();
                            left.addAll(LogStore.transactions());
                            return left.isEmpty();
                        });
            } finally {
                FIGURES.info(String.format("logged transaction with a committed reader branch: record committed %d ms"
                        + " after the restart; left in the log store: %s; recovery scans logged %d ARJUNA016037"
                        + " and %d ARJUNA016038 line(s)", recordedMillis, left,
                        LogStore.serverLogLines("(Periodic Recovery) ARJUNA016037"),
                        LogStore.serverLogLines("(Periodic Recovery) ARJUNA016038")));
            }
            assertEquals(1, databases.recorded(run), "recorded once");
            assertEquals(0, broker.depth(QUEUE), "not delivered again");
            assertEquals(0, broker.count("SELECT COUNT(*) FROM ssb.dead_letter"));
        } finally {
            signal("CONT", frozen);
            if (running) {
                try {
                    deployer.undeploy("held-beans");
                    deployer.undeploy("held-rar");
                } finally {
                    controller.stop(ManualServer.QUALIFIER);
                }
            }
        }
    }

    /** Sends {@code SIGname} to the processes. */
    private static void signal(String name, List<Long> pids) {
        if (pids.isEmpty()) {
            return;
        }
        List<String> command = new ArrayList<>(List.of("kill", "-" + name));
        pids.forEach(p -> command.add(Long.toString(p)));
        try {
            Process kill = new ProcessBuilder(command).inheritIO().start();
            if (kill.waitFor() != 0) {
                throw new IllegalStateException(command + " failed");
            }
        } catch (IOException e) {
            throw new IllegalStateException(command + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(command + " interrupted", e);
        }
    }
}
