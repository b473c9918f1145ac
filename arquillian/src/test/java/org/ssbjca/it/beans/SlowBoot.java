package org.ssbjca.it.beans;

import jakarta.annotation.PostConstruct;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import java.util.logging.Logger;

/**
 * Makes the server slow to start, as a server with applications that take long to deploy is: while it is deployed,
 * every boot and reload of the server waits {@value #MILLIS} ms for it (a startup singleton's initialisation is part
 * of the deployment, which the boot waits for; management operations are refused until the boot ends).
 */
@Singleton
@Startup
public class SlowBoot {

    /** How long each start of the deployment takes. */
    public static final long MILLIS = 15_000;
    /** Logged at the end of each start. */
    public static final String STARTED = "ssb-it slow boot: started after";

    @PostConstruct
    void slowly() throws InterruptedException {
        Thread.sleep(MILLIS);
        Logger.getLogger(SlowBoot.class.getName()).info(STARTED + " " + MILLIS + " ms");
    }
}
