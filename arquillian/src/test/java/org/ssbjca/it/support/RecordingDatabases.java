package org.ssbjca.it.support;

import org.jboss.shrinkwrap.api.spec.ResourceAdapterArchive;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.ssbjca.it.beans.CrashRecordingService;
import org.ssbjca.it.beans.Recorder;
import org.ssbjca.it.beans.SlowPrepare;

/**
 * The databases of the fault tests whose bean records each delivery in a second database: a restartable PostgreSQL
 * with the broker in its {@code postgres} database and {@code it_record} in {@value #RECORDS_DB}, and the RAR whose
 * default connection factory reaches the first and {@value CrashRecordingService#RECORD_FACTORY} the second, so that
 * every delivery is a two-phase commit across two databases. Client side only.
 *
 * @param pg the server
 * @param broker its broker database, with the queue declared
 * @param records its records database, with the record table
 */
public record RecordingDatabases(RestartablePostgres pg, BrokerDb broker, BrokerDb records) {

    /** The database the bean records in. */
    public static final String RECORDS_DB = "records";

    /**
     * @param name names the server's data directory
     * @param queue the queue to declare in the broker database
     * @return the started server with both databases ready
     */
    public static RecordingDatabases create(String name, String queue) {
        RestartablePostgres pg = RestartablePostgres.create(name);
        pg.createDatabase(RECORDS_DB);
        return new RecordingDatabases(pg,
                new BrokerDb(pg.jdbcUrl(), RestartablePostgres.USER, RestartablePostgres.PASSWORD).declare(queue),
                new BrokerDb(pg.jdbcUrl(RECORDS_DB), RestartablePostgres.USER, RestartablePostgres.PASSWORD)
                        .createRecordTables());
    }

    /** @return the RAR with the two connection factories */
    public ResourceAdapterArchive rar() {
        return Deployments.rar(IronJacamar.descriptor(pg.jdbcUrl(), RestartablePostgres.USER,
                        RestartablePostgres.PASSWORD)
                .connectionFactory("java:/ssb/ConnectionFactory", null)
                .connectionFactory(CrashRecordingService.RECORD_FACTORY, pg.jdbcUrl(RECORDS_DB))
                .xml());
    }

    /**
     * @param warName the archive's name
     * @return the recording bean ({@link CrashRecordingService}) with what it uses, in a web archive
     */
    public static WebArchive beans(String warName) {
        return Deployments.testWar(warName, CrashRecordingService.class, Recorder.class, SlowPrepare.class);
    }

    /**
     * @param prefix the bodies' prefix (a run)
     * @return the records whose body starts with it
     */
    public long recorded(String prefix) {
        return records.count("SELECT COUNT(*) FROM it_record WHERE body LIKE ?", prefix + "%");
    }
}
