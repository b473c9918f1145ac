package org.ssbjca.console;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;

/** The console's JSON API, under {@code /api} of the console's context ({@code /ssb-jca-console/api}). */
@ApplicationPath("api")
public class ConsoleApplication extends Application {
}
