// The user arraygraph connects as, made once by mongosh when the mongodb service first starts
// on an empty volume (the image runs /docker-entrypoint-initdb.d/ after making the root user).
// Its name, password and authentication database are those of the URI arraygraph reads (the
// secret in MONGODB_URI_FILE), so the two can never disagree. Its one role, readWrite on
// arraygraph's database (ARRAYGRAPH_DB), covers all arraygraph does: reads, writes,
// aggregations, and createIndexes at start-up; no other database, no administration.
const uriFile = process.env.MONGODB_URI_FILE || '/run/secrets/mongodb_uri';
const uri = fs.readFileSync(uriFile, 'utf8').trim();
const credentials = /^mongodb(?:\+srv)?:\/\/([^:@/?#]+):([^@/?#]+)@/.exec(uri);
if (!credentials) {
  throw new Error(uriFile + ' holds no user and password (mongodb://USER:PASSWORD@HOST/...)');
}
// The driver's rule: authSource, else the database in the URI's path, else admin.
const source = /[?&]authSource=([^&#]+)/.exec(uri);
const path = /@[^/?#]*\/([^?#]+)/.exec(uri);
const authDatabase = decodeURIComponent((source || path || [null, 'admin'])[1]);
const database = process.env.ARRAYGRAPH_DB || 'arraygraph';
db.getSiblingDB(authDatabase).createUser({
  user: decodeURIComponent(credentials[1]),
  pwd: decodeURIComponent(credentials[2]),
  roles: [{ role: 'readWrite', db: database }],
});
print('created the user arraygraph connects as: readWrite on ' + database);
