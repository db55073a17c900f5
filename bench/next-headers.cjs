// autocannon `setupRequest` (in workers mode it must be a file to require): each request takes the next
// header set of `request.headerSets`, so that, e.g., every sign-out ends a session of its own. The counter
// is shared by all connections of the worker; the bench runs one worker and sends fewer requests than sets.
let next = 0;

module.exports = (request) => {
  const extra = request.headerSets[next++ % request.headerSets.length];
  return { ...request, headers: { ...request.headers, ...extra } };
};
