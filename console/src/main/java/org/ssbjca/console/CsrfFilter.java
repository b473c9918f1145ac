package org.ssbjca.console;

import jakarta.json.Json;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.Provider;
import java.util.Set;

/**
 * Cross-site request forgery: a request that changes something must carry the header {@value #HEADER}. A page of
 * another site cannot send a custom header to the console without the browser asking the console first (CORS), which
 * it never allows; the console's own page and scripts (curl) send it.
 */
@Provider
public class CsrfFilter implements ContainerRequestFilter {

    /** The header every POST, PUT and DELETE must carry, with any value. */
    public static final String HEADER = "X-SSB-Console";

    private static final Set<String> SAFE = Set.of("GET", "HEAD", "OPTIONS");

    @Override
    public void filter(ContainerRequestContext request) {
        if (!SAFE.contains(request.getMethod()) && request.getHeaderString(HEADER) == null) {
            request.abortWith(Response.status(Response.Status.FORBIDDEN).type(MediaType.APPLICATION_JSON)
                    .entity(Json.createObjectBuilder().add("error", "a request that changes something must carry"
                            + " the header " + HEADER).build()).build());
        }
    }
}
