package org.ssbjca.bench;

import java.nio.file.Path;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.importer.ZipImporter;
import org.jboss.shrinkwrap.api.spec.JavaArchive;
import org.jboss.shrinkwrap.api.spec.ResourceAdapterArchive;
import org.ssbjca.bench.server.ArtemisBenchMdb;
import org.ssbjca.bench.server.ArtemisOneDbMdb;
import org.ssbjca.bench.server.OneDbDataSource;
import org.ssbjca.bench.server.Payments;
import org.ssbjca.bench.server.SsbOneDbMdb;
import org.ssbjca.bench.server.SsbOneDbXaMdb;
import org.ssbjca.bench.server.ArtemisSender;
import org.ssbjca.bench.server.BenchControl;
import org.ssbjca.bench.server.BenchControlMXBean;
import org.ssbjca.bench.server.BenchControlRegistration;
import org.ssbjca.bench.server.ContainerLoop;
import org.ssbjca.bench.server.ContainerTaker;
import org.ssbjca.bench.server.LatencyEvent;
import org.ssbjca.bench.server.LoopTakeEvent;
import org.ssbjca.bench.server.Bodies;
import org.ssbjca.bench.server.Recorder;
import org.ssbjca.bench.server.SsbBatchMdb;
import org.ssbjca.bench.server.SsbBenchMdb;
import org.ssbjca.bench.server.SsbReplyMdb;
import org.ssbjca.bench.server.SsbTableMdb;
import org.ssbjca.bench.server.SsbTracedMdb;
import org.ssbjca.bench.server.ThreadCosts;
import org.ssbjca.bench.server.TraceCounts;
import org.ssbjca.bench.server.ArtemisReplyMdb;
import org.ssbjca.bench.server.SsbSender;

/**
 * The archives of the run: ssb-jca.rar pointed at the benchmark's PostgreSQL, the control jar (senders, the
 * recorder, the control MXBean and the Artemis queue), and one small jar per consumer configuration, deployed and
 * undeployed around each phase. The consumers see the recorder through {@code Dependencies}.
 */
final class BenchDeployments {

    static final String CONTROL = "bench-control.jar";

    private BenchDeployments() {
    }

    static ResourceAdapterArchive rar(BenchPostgres pg) {
        ResourceAdapterArchive rar = ShrinkWrap.create(ZipImporter.class, "ssb-jca.rar")
                .importFrom(Path.of(System.getProperty("ssb.bench.rar")).toFile())
                .as(ResourceAdapterArchive.class);
        rar.delete("META-INF/ironjacamar.xml");
        rar.add(new StringAsset(ironjacamar(pg.url(), BenchPostgres.USER, BenchPostgres.PASSWORD)),
                "META-INF/ironjacamar.xml");
        return rar;
    }

    static JavaArchive control() {
        return ShrinkWrap.create(JavaArchive.class, CONTROL)
                .addClasses(Recorder.class, Bodies.class, BenchControlMXBean.class, BenchControl.class,
                        BenchControlRegistration.class, SsbSender.class, ArtemisSender.class,
                        ContainerLoop.class, LoopTakeEvent.class, ContainerTaker.class, LatencyEvent.class,
                        Payments.class, OneDbDataSource.class, TraceCounts.class, ThreadCosts.class)
                .addAsManifestResource("bench-jms.xml", "bench-jms.xml")
                .setManifest(new StringAsset("Manifest-Version: 1.0\nDependencies: deployment.ssb-jca.rar, jdk.jfr,"
                        + " jdk.management\n"));
    }

    /** The EJB name of {@link #ssbConsumer}'s bean. */
    static final String SSB_BEAN = "SsbBenchMdb";

    /** The EJB name of {@link #artemisConsumer}'s bean. */
    static final String ARTEMIS_BEAN = "ArtemisBenchMdb";

    /** ssb-jca, one message per transaction, with {@code readers} readers. */
    static JavaArchive ssbConsumer(int readers) {
        return consumer("bench-ssb-" + readers + ".jar", SsbBenchMdb.class, SSB_BEAN, "maxReaders", readers);
    }

    /**
     * ssb-jca, one message per transaction, 4 readers, in a CDI deployment (a {@code beans.xml}) that sees
     * OpenTelemetry's API: on a server with the {@code opentelemetry} subsystem the adapter makes a consumer span for
     * each delivery of a message that carries a trace context.
     */
    static JavaArchive ssbTracedConsumer() {
        JavaArchive jar = consumer("bench-ssb-traced.jar", SsbTracedMdb.class, "SsbTracedMdb", "maxReaders", 4);
        return jar.addAsManifestResource(org.jboss.shrinkwrap.api.asset.EmptyAsset.INSTANCE, "beans.xml")
                .setManifest(new StringAsset("Manifest-Version: 1.0\nDependencies: deployment.ssb-jca.rar, deployment."
                        + CONTROL + ", io.opentelemetry.api, io.opentelemetry.context\n"));
    }

    /** ssb-jca's conversation group listener, 4 readers, up to 10,000 messages per transaction. */
    static JavaArchive ssbBatchConsumer() {
        return consumer("bench-ssb-batch.jar", SsbBatchMdb.class, "SsbBatchMdb", "maxReaders", 4);
    }

    /** ssb-jca, one message per transaction answered in it (SEND on the reader's connection), 4 readers. */
    static JavaArchive ssbReplyConsumer() {
        return consumer("bench-ssb-reply.jar", SsbReplyMdb.class, "SsbReplyMdb", "maxReaders", 4);
    }

    /** Artemis, one message per transaction answered in it through java:/JmsXA, maxSession 4. */
    static JavaArchive artemisReplyConsumer() {
        return consumer("bench-artemis-reply.jar", ArtemisReplyMdb.class, "ArtemisReplyMdb", "maxSession", 4);
    }

    /** ssb-jca's table queue (the work table, transactional mode), one row per transaction, 4 readers. */
    static JavaArchive ssbTableConsumer() {
        return consumer("bench-table-4.jar", SsbTableMdb.class, "SsbTableMdb", "maxReaders", 4);
    }

    /** Artemis with {@code sessions} sessions. */
    static JavaArchive artemisConsumer(int sessions) {
        return consumer("bench-artemis-" + sessions + ".jar", ArtemisBenchMdb.class, ARTEMIS_BEAN, "maxSession",
                sessions);
    }

    /** The PostgreSQL JDBC driver as a deployment of its own, for the one-database phase's XA datasources. */
    static final String DRIVER = "postgresql.jar";

    /** @return pgjdbc's jar, deployed as {@value #DRIVER} */
    static JavaArchive driver() {
        try {
            return ShrinkWrap.create(ZipImporter.class, DRIVER).importFrom(Path.of(org.postgresql.Driver.class
                    .getProtectionDomain().getCodeSource().getLocation().toURI()).toFile()).as(JavaArchive.class);
        } catch (java.net.URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /** ssb-jca, 4 readers, each message's payment written on the delivery's own connection. */
    static JavaArchive ssbOneDbConsumer() {
        return consumer("bench-ssb-onedb.jar", SsbOneDbMdb.class, "SsbOneDbMdb", "maxReaders", 4);
    }

    /** ssb-jca, 4 readers, each message's payment written through an XA datasource of the same database. */
    static JavaArchive ssbOneDbXaConsumer(BenchPostgres pg) {
        return consumer("bench-ssb-onedb-xa.jar", SsbOneDbXaMdb.class, "SsbOneDbXaMdb", "maxReaders", 4,
                OneDbDataSource.descriptor(pg.url(), BenchPostgres.USER, BenchPostgres.PASSWORD));
    }

    /** Artemis, maxSession 4, each message's payment written through an XA datasource of the database. */
    static JavaArchive artemisOneDbConsumer(BenchPostgres pg) {
        return consumer("bench-artemis-onedb-xa.jar", ArtemisOneDbMdb.class, "ArtemisOneDbMdb", "maxSession", 4,
                OneDbDataSource.descriptor(pg.url(), BenchPostgres.USER, BenchPostgres.PASSWORD));
    }

    private static JavaArchive consumer(String name, Class<?> bean, String ejbName, String property, int value) {
        return consumer(name, bean, ejbName, property, value, null);
    }

    /** @param dataSource a {@code data-source} element for the bean, or null; with one the driver's deployment too */
    private static JavaArchive consumer(String name, Class<?> bean, String ejbName, String property, int value,
            String dataSource) {
        String ejbJar = "<ejb-jar xmlns=\"https://jakarta.ee/xml/ns/jakartaee\" version=\"4.0\">\n"
                + "  <enterprise-beans>\n"
                + "    <message-driven>\n"
                + "      <ejb-name>" + ejbName + "</ejb-name>\n"
                + "      <activation-config>\n"
                + "        <activation-config-property>\n"
                + "          <activation-config-property-name>" + property + "</activation-config-property-name>\n"
                + "          <activation-config-property-value>" + value + "</activation-config-property-value>\n"
                + "        </activation-config-property>\n"
                + "      </activation-config>\n"
                + (dataSource == null ? "" : dataSource)
                + "    </message-driven>\n"
                + "  </enterprise-beans>\n"
                + "</ejb-jar>\n";
        return ShrinkWrap.create(JavaArchive.class, name)
                .addClass(bean)
                .addAsManifestResource(new StringAsset(ejbJar), "ejb-jar.xml")
                .setManifest(new StringAsset("Manifest-Version: 1.0\nDependencies: "
                        + (dataSource == null ? "" : "deployment." + DRIVER + ", ")
                        + "deployment.ssb-jca.rar, deployment." + CONTROL + "\n"));
    }

    private static String ironjacamar(String url, String user, String password) {
        return "<ironjacamar xmlns=\"http://www.ironjacamar.org/doc/schema\">\n"
                + "  <config-property name=\"connectionUrl\">" + url + "</config-property>\n"
                + "  <config-property name=\"user\">" + user + "</config-property>\n"
                + "  <config-property name=\"password\">" + password + "</config-property>\n"
                + "  <transaction-support>XATransaction</transaction-support>\n"
                + "  <connection-definitions>\n"
                + "    <connection-definition class-name=\"org.ssbjca.outbound.ServiceBrokerManagedConnectionFactory\""
                + " jndi-name=\"java:/ssb/ConnectionFactory\" pool-name=\"ssb-ConnectionFactory\">\n"
                + "      <xa-pool><min-pool-size>0</min-pool-size><max-pool-size>50</max-pool-size></xa-pool>\n"
                + "      <recovery no-recovery=\"true\"/>\n"
                + "    </connection-definition>\n"
                + "  </connection-definitions>\n"
                + "</ironjacamar>\n";
    }
}
